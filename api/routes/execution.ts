/**
 * Session registration and revocation (REG-2, REG-5); the identity check (HTTP-1a) is a catalog operation (ops/identity.ts).
 * Registration is a control-plane call: it needs credentials, not execution headers.
 */
import { Router, type Response } from "express";
import { z } from "zod";
import { AppError } from "../../core/errors";
import { registerSession, revokeSession } from "../../core/registry/registry";
import { cleanSession } from "../../core/retention/cleanup";
import { MEMORY_PURGE_BATCH } from "../../core/limits";
import type { Identity } from "../../core/execution/identity";
import { requireActor } from "../auth";
import type { AppContext } from "../context";
import { principalOf } from "../execution";
import { actorOf, limitsOf, parseWith, route } from "../http";

const RegisterBody = z.strictObject({ session_id: z.string().max(1024) });

function identityBody(identity: Identity, expiresAt: Date) {
  return { ...identity, expires_at: expiresAt.toISOString() };
}

function sendIdentity(res: Response, status: number, identity: Identity, expiresAt: Date): void {
  res.status(status).json(identityBody(identity, expiresAt));
}

export function executionRoutes(ctx: AppContext): Router {
  const r = Router();
  r.post(
    "/api/v1/execution/sessions",
    requireActor(ctx),
    route(async (req, res) => {
      const actor = actorOf(req);
      await limitsOf(ctx).registrations.consume(actor.orgId);
      const { session_id } = parseWith(RegisterBody, req.body);
      const { binding, created } = await registerSession(ctx.db, ctx.clock, principalOf(actor), session_id);
      const identity = {
        tenant_id: binding.org_id,
        subject_id: binding.user_id,
        session_id: binding.session_id,
        parent_session_id: binding.session_id,
      };
      sendIdentity(res, created ? 201 : 200, identity, binding.expires_at);
    }),
  );
  r.delete(
    "/api/v1/execution/sessions/:id",
    requireActor(ctx),
    route(async (req, res) => {
      const actor = actorOf(req);
      const id = req.params.id;
      if (typeof id !== "string") throw new AppError("session_not_found");
      const binding = await revokeSession(ctx.db, ctx.clock, { ...principalOf(actor), role: actor.role }, id);
      // RET-1: execution is blocked by the tombstone already; attempt the data cleanup now
      // (one bounded pass); the cleanup pool retries every minute until it is done.
      if (ctx.cleaners) {
        const target = { tenant_id: binding.org_id, session_id: binding.session_id };
        await cleanSession(ctx.cleaners, target, ctx.logger, { limit: MEMORY_PURGE_BATCH, batches: 1, record: { db: ctx.db, now: ctx.clock.now() } });
      }
      res.status(204).end();
    }),
  );
  return r;
}

/**
 * Session memory over HTTP (HTTP-4, HTTP-4a). Every route needs the execution
 * headers (requireExecution) and a repository permission (authorizeRepo):
 * read for the session's own memory, write for promotion. The namespace is the
 * route's repository. Bodies are zod strict objects: unknown fields → 400.
 * The old repository offload endpoint answers 410.
 */
import { Router, type Request } from "express";
import { z } from "zod";
import { authorize, authorizeRepo } from "../../core/authorize";
import { idString, textString } from "../../core/boundary";
import { AppError } from "../../core/errors";
import {
  MAX_ENTITY_NAME_CHARS,
  MAX_MEMORY_READ_LIMIT,
  MAX_OFFLOAD_TURNS,
  MAX_OFFLOAD_TURN_CHARS,
  MAX_PROMOTE_FACT_IDS,
  MAX_RECALL_LIMIT,
  MAX_RECALL_QUERY_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TRIPLES_PER_UPSERT,
} from "../../core/limits";
import type { MemoryScope } from "../../core/memory/engine";
import type { MemoryServices } from "../../core/memory/services";
import type { RepoLevel } from "../../db/schema";
import type { AppContext } from "../context";
import { executionOf, principalOf, requireExecution } from "../execution";
import { parseWith, route } from "../http";

const name = idString(MAX_ENTITY_NAME_CHARS);
const type = z.string().regex(/^[A-Za-z0-9_.:-]{0,64}$/);
export const tripleSchema = z.strictObject({
  subject: name,
  predicate: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  object: name,
  subject_type: type.optional(),
  object_type: type.optional(),
});
export const upsertSchema = z.strictObject({
  triples: z.array(tripleSchema).min(1).max(MAX_TRIPLES_PER_UPSERT),
  source: textString(MAX_SOURCE_CHARS).optional(),
});
export const recallSchema = z.strictObject({
  query: textString(MAX_RECALL_QUERY_CHARS).min(1),
  limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).optional(),
});
const readQuery = z.strictObject({
  q: textString(MAX_ENTITY_NAME_CHARS).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_MEMORY_READ_LIMIT).optional(),
});
const offloadSchema = z.strictObject({
  turns: z
    .array(z.strictObject({ role: z.enum(["user", "assistant", "tool"]), content: textString(MAX_OFFLOAD_TURN_CHARS) }))
    .min(1)
    .max(MAX_OFFLOAD_TURNS),
});
const promoteSchema = z.strictObject({
  fact_ids: z.array(idString()).min(1).max(MAX_PROMOTE_FACT_IDS),
});

export function memoryOf(ctx: AppContext): MemoryServices {
  const m = ctx.memory;
  if (!m) throw new AppError("unavailable", { message: "Memory is not configured." });
  return m;
}

/** The caller's scope in the route's repository, after the repository permission check. */
export async function memoryScope(ctx: AppContext, req: Request, level: RepoLevel): Promise<MemoryScope> {
  const ex = executionOf(req);
  const repo = await authorizeRepo(ctx.db, { orgId: ex.actor.orgId, userId: ex.actor.userId }, String(req.params.repo), level);
  return { identity: ex.identity, ns: repo.repoId, expiresAt: ex.expiresAt };
}

export function sessionMemoryRoutes(ctx: AppContext): Router {
  const r = Router();
  const base = "/api/v1/repos/:repo";

  // The old repository offload endpoint: conversations never silently become shared repository memory.
  r.post(`${base}/offload`, (_req, _res, next) => next(new AppError("gone", { message: "This endpoint has been removed; use POST /session-memory/offload." })));

  r.get(
    `${base}/session-memory`,
    requireExecution(ctx),
    route(async (req, res) => {
      const q = parseWith(readQuery, req.query);
      const scope = await memoryScope(ctx, req, "read");
      const out = await memoryOf(ctx).sessions.read(scope, q);
      res.json({ entities: out.entities, facts: out.facts, revision: out.revision });
    }),
  );

  r.post(
    `${base}/session-memory`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(upsertSchema, req.body);
      const scope = await memoryScope(ctx, req, "read");
      res.json(await memoryOf(ctx).sessions.upsert(scope, body));
    }),
  );

  r.delete(
    `${base}/session-memory`,
    requireExecution(ctx),
    route(async (req, res) => {
      const scope = await memoryScope(ctx, req, "read");
      await memoryOf(ctx).sessions.clear(scope);
      res.status(204).end();
    }),
  );

  r.post(
    `${base}/session-memory/recall`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(recallSchema, req.body);
      const scope = await memoryScope(ctx, req, "read");
      res.json(await memoryOf(ctx).sessions.recall(scope, body));
    }),
  );

  r.post(
    `${base}/session-memory/offload`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(offloadSchema, req.body);
      const scope = await memoryScope(ctx, req, "read");
      const ex = executionOf(req);
      const principal = principalOf(ex.actor);
      const sessionId = ex.identity.session_id;
      const repoId = scope.ns;
      // OFF-2: before storing, authorization is run again from the rows (binding, account, key, repository).
      const recheck = async (): Promise<MemoryScope> => {
        const a = await authorize(ctx.db, ctx.clock, principal, sessionId, { repo: { ref: repoId, level: "read" } });
        return { identity: a.identity, ns: a.repo!.repoId, expiresAt: a.expiresAt };
      };
      await memoryOf(ctx).offload.submit(scope, body.turns, recheck);
      res.status(202).json({ accepted: body.turns.length });
    }),
  );

  r.post(
    `${base}/session-memory/promote`,
    requireExecution(ctx),
    route(async (req, res) => {
      const body = parseWith(promoteSchema, req.body);
      const scope = await memoryScope(ctx, req, "write");
      const m = memoryOf(ctx);
      res.json(await m.repository.promote(m.sessions, scope, body.fact_ids));
    }),
  );

  return r;
}

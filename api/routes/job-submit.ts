/**
 * Job submission (HTTP-5): ingest, AI task, fix job, embedding refresh — each
 * behind requireExecution(), with a strict zod body, the repository
 * permission of its kind (write for ingest, fix and embedding; read for AI)
 * checked before anything else, and a 202 `{job_id}`. `submitRepoJob` is
 * also what the MCP tools `submit_ingest` / `submit_ai_task` call.
 *
 * Idempotency (queues/idempotency.ts): an `Idempotency-Key` header (the tools'
 * `idempotency_key`) makes a retried submission answer with the job the first
 * one created, for 24 h, with `Idempotent-Replayed: true`; the same key with
 * another body is 409 `idempotency_key_reused`; a malformed key is 400
 * `idempotency_key_invalid`, before anything else is looked at.
 */
import { Router } from "express";
import type { z } from "zod";
import type { Actor } from "../../core/auth/authenticate";
import { authorizeRepo } from "../../core/authorize";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { parseIdempotencyKey } from "../../queues/idempotency";
import { submitJobOnce } from "../../queues/submit";
import { AI_KIND, aiParams } from "../../core/jobs/ai";
import { EMBEDDING_KIND, embeddingParams } from "../../core/jobs/embedding";
import { FIX_KIND, fixParams } from "../../core/jobs/fix";
import { checkIngestSource, INGEST_KIND, ingestParams } from "../../core/jobs/ingest";
import type { AppContext } from "../context";
import { executionOf, principalOf, requireExecution } from "../execution";
import { parseWith, route } from "../http";

export const SUBMIT_KINDS = {
  [INGEST_KIND]: { schema: ingestParams, level: "write" },
  [AI_KIND]: { schema: aiParams, level: "read" },
  [FIX_KIND]: { schema: fixParams, level: "write" },
  [EMBEDDING_KIND]: { schema: embeddingParams, level: "write" },
} as const;

export type SubmitKind = keyof typeof SUBMIT_KINDS;

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";

export interface SubmitOptions {
  /** Checked by parseIdempotencyKey. */
  idempotencyKey?: string | undefined;
}

/**
 * Validates, checks the repository permission, (for ingest) the snapshot source, then `submitJobOnce`.
 * `replayed`: an earlier submission with the same idempotency key created this job.
 */
export async function submitRepoJob(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  kind: SubmitKind,
  repoRef: string,
  body: unknown,
  opts: SubmitOptions = {},
): Promise<{ job_id: string; replayed: boolean }> {
  const def = SUBMIT_KINDS[kind];
  const params = parseWith(def.schema as z.ZodType, body) as Record<string, unknown>;
  if (!ctx.jobs || !ctx.jobs.registry.get(kind)) throw new AppError("unavailable", { message: "This job kind is not available on this server." });
  // Permission first: a caller without it learns nothing about the snapshot source rules.
  const repo = await authorizeRepo(ctx.db, { orgId: actor.orgId, userId: actor.userId }, repoRef, def.level);
  if (kind === INGEST_KIND) {
    await checkIngestSource(ctx.config, params as z.infer<typeof ingestParams>, { db: ctx.db, identity, repoId: repo.repoId, now: ctx.clock.now() });
  }
  const { row, replayed } = await submitJobOnce(ctx.jobs, identity, principalOf(actor), {
    kind,
    params,
    repo: repo.repoId,
    ...(opts.idempotencyKey !== undefined ? { idempotencyKey: opts.idempotencyKey } : {}),
  });
  return { job_id: row.id, replayed };
}

export function jobSubmitRoutes(ctx: AppContext): Router {
  const r = Router();
  const base = "/api/v1/repos/:repo";
  const mount = (suffix: string, kind: SubmitKind) =>
    r.post(
      `${base}${suffix}`,
      requireExecution(ctx),
      route(async (req, res) => {
        const idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER]);
        const ex = executionOf(req);
        const { job_id, replayed } = await submitRepoJob(ctx, ex.identity, ex.actor, kind, String(req.params.repo), req.body ?? {}, { idempotencyKey });
        if (replayed) res.setHeader(REPLAYED_HEADER, "true");
        res.status(202).json({ job_id });
      }),
    );
  mount("/ingest", INGEST_KIND);
  mount("/ai-tasks", AI_KIND);
  mount("/fix-jobs", FIX_KIND);
  mount("/embeddings/refresh", EMBEDDING_KIND);
  return r;
}

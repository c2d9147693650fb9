/**
 * Job routes (HTTP-5): list, detail and cancel — each behind
 * requireExecution() and restricted to the requesting execution identity
 * (same organisation, user and primary session). Any other job, including one
 * of another session of the same user, is `job_not_found`. Submission routes
 * call `submitJob` (queues/submit.ts) and live with their handlers.
 *
 * `GET /api/v1/jobs/{id}?wait=MS` (and the `get_job` tool's `wait_ms`, through
 * the same `readJob`) waits up to 30 s for a terminal status and answers as
 * soon as there is one, or with the current status when the wait runs out.
 * Waiting uses the shared watcher of the job event streams (job-events.ts).
 */
import { Router } from "express";
import { z } from "zod";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { JOB_WAIT_MAX_MS } from "../../core/limits";
import { waitForTerminal } from "../../queues/job-watch";
import { signalCancel } from "../../queues/cancel-signals";
import type { JobRow } from "../../queues/jobs";
import { cancelJob } from "../../queues/sql/cancelJob";
import { getJob } from "../../queues/sql/getJob";
import { listJobs } from "../../queues/sql/listJobs";
import type { AppContext } from "../context";
import { executionOf, requireExecution } from "../execution";
import { parseWith, route } from "../http";
import { jobEventsOf } from "./job-events";

const JOB_ID = /^job_[0-9a-f]{32}$/;
const MAX_LIST = 100;

const ListQuery = z.strictObject({
  status: z.enum(["queued", "running", "succeeded", "failed", "canceled", "abandoned", "refused"]).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIST).default(20),
  before: z.iso.datetime().optional(),
});

const DetailQuery = z.strictObject({
  /** Milliseconds to wait for a terminal status (0 = answer at once). */
  wait: z.coerce.number().int().min(0).max(JOB_WAIT_MAX_MS).optional(),
});

/** What a caller sees of its own job: no lease token, no principal ids. */
export function jobView(j: JobRow) {
  return {
    id: j.id,
    kind: j.kind,
    pool: j.pool,
    status: j.status,
    repo_id: j.repo_id,
    params: j.params,
    result: j.result ?? null,
    error_code: j.error_code,
    attempts: j.attempts,
    max_attempts: j.max_attempts,
    cancel_requested: j.cancel_requested_at !== null,
    progress: j.progress_total === null || j.progress_total === undefined ? null : { done: j.progress_done ?? 0, total: j.progress_total },
    created_at: j.created_at.toISOString(),
    run_at: j.run_at.toISOString(),
    started_at: j.started_at?.toISOString() ?? null,
    finished_at: j.finished_at?.toISOString() ?? null,
  };
}

/**
 * One of the caller's own jobs (`job_not_found` for any other), after waiting up to `waitMs`
 * for it to end. The one read behind GET /jobs/{id} and the get_job tool.
 */
export async function readJob(ctx: AppContext, identity: Identity, id: string, opts: { waitMs?: number; signal?: AbortSignal } = {}): Promise<JobRow> {
  const job = await getJob(ctx.db, identity, id);
  if (!job) throw new AppError("job_not_found");
  if (!opts.waitMs) return job;
  return waitForTerminal(jobEventsOf(ctx).watcher, job, Math.min(opts.waitMs, JOB_WAIT_MAX_MS), opts.signal);
}

export function jobIdOf(raw: unknown): string {
  if (typeof raw !== "string" || !JOB_ID.test(raw)) throw new AppError("job_not_found");
  return raw;
}

export function jobRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get(
    "/api/v1/jobs",
    requireExecution(ctx),
    route(async (req, res) => {
      const q = parseWith(ListQuery, req.query);
      const rows = await listJobs(ctx.db, executionOf(req).identity, { limit: q.limit, ...(q.status ? { status: q.status } : {}), ...(q.before ? { before: new Date(q.before) } : {}) });
      const last = rows.at(-1);
      res.json({ jobs: rows.map(jobView), next_before: rows.length === q.limit && last ? last.created_at.toISOString() : null });
    }),
  );
  r.get(
    "/api/v1/jobs/:id",
    requireExecution(ctx),
    route(async (req, res) => {
      const q = parseWith(DetailQuery, req.query, "(query)");
      const id = jobIdOf(req.params.id);
      const gone = new AbortController();
      res.on("close", () => gone.abort()); // the client went away: stop waiting
      const job = await readJob(ctx, executionOf(req).identity, id, { ...(q.wait ? { waitMs: q.wait } : {}), signal: gone.signal });
      if (!res.writableEnded) res.json(jobView(job));
    }),
  );
  r.post(
    "/api/v1/jobs/:id/cancel",
    requireExecution(ctx),
    route(async (req, res) => {
      const identity = executionOf(req).identity;
      const id = jobIdOf(req.params.id);
      const canceled = await cancelJob(ctx.db, identity, id, ctx.clock.now());
      if (canceled) {
        // A handler running in this process stops at once; elsewhere the worker's cancel watch sees the row.
        if (canceled.status === "running") signalCancel(id);
        res.status(202).json(jobView(canceled));
        return;
      }
      const job = await getJob(ctx.db, identity, id);
      if (!job) throw new AppError("job_not_found");
      res.status(200).json(jobView(job)); // already finished: nothing to cancel
    }),
  );
  return r;
}

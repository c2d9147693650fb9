/**
 * The operators' API (platform admins; the jobs page and the CLI's remote mode use it):
 *
 *   GET  /api/v1/admin/jobs             jobs by filter (pool, status, org, kind, error_code), with
 *                                       names beside ids, and failures grouped by kind + error code
 *   GET  /api/v1/admin/jobs/:id         one job and its attempts (lease owner, timings, error)
 *   POST /api/v1/admin/jobs/:id/cancel  cancel any job (queued: now; running: its worker stops it)
 *   POST /api/v1/admin/jobs/:id/retry   a failed or refused job runs again: the same row, so the
 *                                       same identity, rechecked by the claim like any job
 *   POST /api/v1/admin/jobs/replay      the same for every requeueable job a filter selects
 *   POST /api/v1/admin/commands/:name   a `codesynapse admin` command (ops/admin-commands.ts) on the
 *                                       running server's database: the CLI's remote mode
 *
 * Who may call: a platform admin (API key or sign-in cookie; cookie POSTs pass the CSRF guard),
 * or, for the commands only, the local CLI holding the server's local admin token (the token file
 * in the embedded data directory; main/local-server.ts): whoever can read that directory already
 * holds the whole database. Fix jobs are never retried or replayed (they are never restarted).
 * Every action is audited (audit_log: job.cancel, job.retry, job.replay, admin.command) with the
 * acting user; command flags are never recorded (they can carry a password or a webhook secret).
 */
import { timingSafeEqual } from "node:crypto";
import { Router, type Request, type RequestHandler } from "express";
import { z } from "zod";
import { audit, type AuditAction } from "../../core/audit";
import { idString } from "../../core/boundary";
import { AppError } from "../../core/errors";
import { JOB_STATUSES } from "../../ops/job-view";
import { signalCancel } from "../../queues/cancel-signals";
import { adminJobDetail, failureGroups, listAdminJobs, requeueableIds, requeueJobs, type JobFilter } from "../../queues/sql/adminJobs";
import { cancelAnyJob } from "../../queues/sql/cancelJob";
import type { JobRow } from "../../queues/jobs";
import { ADMIN_COMMANDS } from "../../ops/admin-commands";
import { isAdminCommand } from "../../ops/admin-usage";
import { requireActor, requirePlatformAdmin } from "../auth";
import type { AppContext } from "../context";
import { parseWith, route } from "../http";
import { adminJobView, attemptView, groupView } from "./admin-views";

export const LOCAL_ADMIN_HEADER = "x-codesynapse-local-admin";
/** Replay requeues at most this many jobs per call; the answer says when more matched. */
export const MAX_REPLAY = 500;

const filterSchema = z.strictObject({
  pool: idString(64).optional(),
  status: z.enum(JOB_STATUSES).optional(),
  org: idString().optional(),
  kind: idString(128).optional(),
  error_code: idString(64).optional(),
});
const listQuery = filterSchema.extend({ limit: z.coerce.number().int().min(1).max(500).default(100) });

/** The filter from a query string or body: empty strings mean "any". */
export function filterOf(raw: unknown, schema: z.ZodType = filterSchema): JobFilter & { limit?: number } {
  const obj = Object.fromEntries(Object.entries((raw ?? {}) as Record<string, unknown>).filter(([, v]) => v !== "" && v !== undefined));
  return parseWith(schema, obj, "(query)") as JobFilter & { limit?: number };
}

function localToken(ctx: AppContext, req: Request): boolean {
  const given = req.headers[LOCAL_ADMIN_HEADER];
  const want = ctx.localAdminToken;
  if (typeof given !== "string" || !want) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminApiRoutes(ctx: AppContext): Router {
  const r = Router();
  const admin: RequestHandler[] = [requireActor(ctx), requirePlatformAdmin()];

  const record = (req: Request, action: AuditAction, orgId: string | null, details: Record<string, unknown>) =>
    audit(ctx.identity, {
      at: ctx.clock.now(),
      orgId,
      actorUserId: req.actor?.userId ?? null,
      actorKeyId: req.actor?.apiKeyId ?? null,
      action,
      outcome: "ok",
      sessionTarget: null,
      details: req.actor ? details : { ...details, via: "local_admin_token" },
    });

  /** Hands requeued rows to the dispatcher; the reconciler picks up anything it misses (dispatched_at is null). */
  const dispatch = async (rows: JobRow[]) => {
    if (rows.length === 0 || !ctx.jobs) return;
    const now = ctx.clock.now();
    await ctx.jobs.dispatcher.dispatch(rows.map((j) => ({ id: j.id, pool: j.pool, attempts: j.attempts, run_at: j.run_at })), now).catch((err: unknown) => {
      ctx.logger.warn({ code: "dispatch_failed", err: (err as Error).message }, "dispatch of requeued jobs failed; the reconciler will retry");
    });
  };

  r.get(
    "/api/v1/admin/jobs",
    ...admin,
    route(async (req, res) => {
      const f = filterOf(req.query, listQuery);
      const [jobs, groups] = await Promise.all([listAdminJobs(ctx.db, f, f.limit), failureGroups(ctx.db, f)]);
      const now = ctx.clock.now();
      res.json({ generated_at: now.toISOString(), jobs: jobs.map(adminJobView), failure_groups: groups.map(groupView) });
    }),
  );

  r.get(
    "/api/v1/admin/jobs/:id",
    ...admin,
    route(async (req, res) => {
      const d = await adminJobDetail(ctx.db, String(req.params.id));
      if (!d) throw new AppError("job_not_found");
      res.json({ job: adminJobView(d.job), attempts: d.attempts.map(attemptView), follow_ups: d.follow_ups });
    }),
  );

  r.post(
    "/api/v1/admin/jobs/:id/cancel",
    ...admin,
    route(async (req, res) => {
      const id = String(req.params.id);
      const row = await cancelAnyJob(ctx.db, id, ctx.clock.now());
      if (!row) {
        const d = await adminJobDetail(ctx.db, id);
        if (!d) throw new AppError("job_not_found");
        res.status(200).json({ job: adminJobView(d.job), canceled: false });
        return;
      }
      if (row.status === "running") signalCancel(id);
      await record(req, "job.cancel", row.tenant_id, { job_id: id });
      const d = await adminJobDetail(ctx.db, id);
      res.status(202).json({ job: adminJobView(d!.job), canceled: true });
    }),
  );

  r.post(
    "/api/v1/admin/jobs/:id/retry",
    ...admin,
    route(async (req, res) => {
      const id = String(req.params.id);
      const before = await adminJobDetail(ctx.db, id);
      if (!before) throw new AppError("job_not_found");
      if (!before.job.restartable) {
        throw new AppError("conflict", { message: "This job kind is never restarted (a fix job): submit a new job instead.", details: { reason: "not_restartable" } });
      }
      const [row] = await requeueJobs(ctx.db, [id], ctx.clock.now());
      if (!row) throw new AppError("conflict", { message: "Only a failed or refused job can be retried.", details: { reason: "not_failed" } });
      await dispatch([row]);
      await record(req, "job.retry", row.tenant_id, { job_id: id, kind: row.kind, previous_error_code: before.job.error_code });
      const d = await adminJobDetail(ctx.db, id);
      res.status(202).json({ job: adminJobView(d!.job) });
    }),
  );

  r.post(
    "/api/v1/admin/jobs/replay",
    ...admin,
    route(async (req, res) => {
      const f = filterOf(req.body);
      if (!f.kind && !f.error_code && !f.pool && !f.org) {
        throw new AppError("validation_failed", { message: "A replay needs a filter: at least one of kind, error_code, pool or org.", details: { field: "(body)" } });
      }
      const ids = await requeueableIds(ctx.db, f, MAX_REPLAY + 1);
      const rows = await requeueJobs(ctx.db, ids.slice(0, MAX_REPLAY), ctx.clock.now());
      await dispatch(rows);
      const orgs = [...new Set(rows.map((j) => j.tenant_id))];
      for (const org of orgs) {
        const mine = rows.filter((j) => j.tenant_id === org);
        await record(req, "job.replay", org, { filter: f, count: mine.length, job_ids: mine.map((j) => j.id) });
      }
      res.status(202).json({ replayed: rows.length, job_ids: rows.map((j) => j.id), more: ids.length > MAX_REPLAY });
    }),
  );

  // The CLI's remote mode: the same commands, the same results, on the server's database.
  const commandAccess: RequestHandler = (req, res, next) => {
    if (localToken(ctx, req)) return next();
    requireActor(ctx)(req, res, (err?: unknown) => (err ? next(err) : requirePlatformAdmin()(req, res, next)));
  };
  r.post(
    "/api/v1/admin/commands/:name",
    commandAccess,
    route(async (req, res) => {
      const name = String(req.params.name);
      if (!isAdminCommand(name)) throw new AppError("unknown_command");
      const command = ADMIN_COMMANDS[name];
      const body = parseWith(z.strictObject({ flags: z.record(z.string(), z.union([z.string().max(4096), z.boolean()])).default({}) }), req.body ?? {});
      const result = await command.run(ctx, ctx.clock, body.flags);
      await record(req, "admin.command", null, { command: name });
      res.json(result);
    }),
  );
  return r;
}

/**
 * The operators' API over every job (platform admins; the console's job pages and buttons call it):
 *
 *   admin.list_jobs    jobs by filter (pool, status, org, kind, error_code), names beside ids, and
 *                      the failures grouped by kind + error code
 *   admin.get_job      one job, its attempts (lease owner, timings, error) and its follow-ups
 *   admin.cancel_job   any job (queued: now; running: its worker stops it)
 *   admin.retry_job    a failed or refused job runs again: the same row, so the same identity,
 *                      rechecked by the claim like any job
 *   admin.replay_jobs  the same for every requeueable job a filter selects (at most MAX_REPLAY)
 *
 * Fix jobs are never retried or replayed (they are never restarted). Every action is audited
 * (audit_log: job.cancel, job.retry, job.replay) with the acting user. A filter field sent empty
 * means "any", as an HTML form sends it.
 */
import { z } from "zod";
import { audit, type AuditAction } from "../core/audit";
import { idString } from "../core/boundary";
import { AppError } from "../core/errors";
import { signalCancel } from "../queues/cancel-signals";
import type { JobRow } from "../queues/jobs";
import { adminJobDetail, failureGroups, listAdminJobs, requeueableIds, requeueJobs, type JobFilter } from "../queues/sql/adminJobs";
import { cancelAnyJob } from "../queues/sql/cancelJob";
import { adminJobSchema, adminJobView, attemptSchema, attemptView, groupSchema, groupView } from "./admin-views";
import { followUpSchema, JOB_STATUSES } from "./job-view";
import { defineOperation, WithStatus, type CredentialCall, type OpServices } from "./operation";

/** Replay requeues at most this many jobs per call; the answer says when more matched. */
export const MAX_REPLAY = 500;

/** A filter field: the value, or empty for any. */
const orAny = <T extends z.ZodType>(s: T, what: string) => z.union([z.literal(""), s]).optional().describe(`${what} (empty or absent: any).`);

/** The filter's fields (the console's jobs page reads the same ones from its query). */
export const jobFilterFields = {
  pool: orAny(idString(64), "Only jobs of this pool"),
  status: orAny(z.enum(JOB_STATUSES), "Only jobs in this status"),
  org: orAny(idString(), "Only jobs of this organisation (its id)"),
  kind: orAny(idString(128), "Only jobs of this kind"),
  error_code: orAny(idString(64), "Only jobs that ended with this error code"),
};

/** The filter the store reads: the fields that were given and not empty. */
export function filterOf(input: Partial<Record<keyof typeof jobFilterFields, string | undefined>>): JobFilter {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => k in jobFilterFields && v !== "" && v !== undefined)) as JobFilter;
}

const jobIdField = idString().describe('The job id ("job_…").');
const JOB = "/api/v1/admin/jobs/:id";
const AS_ID = { job_id: "id" };

function record(call: CredentialCall, action: AuditAction, orgId: string | null, details: Record<string, unknown>) {
  const { services, actor } = call;
  return audit(services.identity, { at: services.clock.now(), orgId, actorUserId: actor.userId, actorKeyId: actor.apiKeyId ?? null, action, outcome: "ok", sessionTarget: null, details });
}

/** Hands requeued rows to the dispatcher; the reconciler picks up anything it misses (dispatched_at is null). */
async function dispatch(services: OpServices, rows: JobRow[]): Promise<void> {
  if (rows.length === 0 || !services.jobs) return;
  const jobs = rows.map((j) => ({ id: j.id, pool: j.pool, attempts: j.attempts, run_at: j.run_at }));
  await services.jobs.dispatcher.dispatch(jobs, services.clock.now()).catch((err: unknown) => {
    services.logger.warn({ code: "dispatch_failed", err: (err as Error).message }, "dispatch of requeued jobs failed; the reconciler will retry");
  });
}

async function detailOf(services: OpServices, id: string) {
  const d = await adminJobDetail(services.db, id);
  if (!d) throw new AppError("job_not_found");
  return d;
}

export const listAdminJobsOp = defineOperation({
  name: "admin.list_jobs",
  title: "List every job (operators)",
  description:
    "Jobs of every organisation by filter, newest first, with organisation, repository and user names beside their ids, and the " +
    "failures grouped by kind and error code (how many, how many can run again, when last). Platform admins only.",
  auth: "platform_admin",
  input: { ...jobFilterFields, limit: z.number().int().min(1).max(500).default(100).describe("At most this many jobs (1-500, default 100).") },
  output: z.object({ generated_at: z.string(), jobs: z.array(adminJobSchema), failure_groups: z.array(groupSchema) }),
  http: [{ method: "get", path: "/api/v1/admin/jobs" }],
  async run({ services }, input) {
    const f = filterOf(input);
    const [jobs, groups] = await Promise.all([listAdminJobs(services.db, f, input.limit), failureGroups(services.db, f)]);
    return { generated_at: services.clock.now().toISOString(), jobs: jobs.map(adminJobView), failure_groups: groups.map(groupView) };
  },
});

export const getAdminJob = defineOperation({
  name: "admin.get_job",
  title: "One job and its attempts (operators)",
  description: "Any job, its attempts (lease owner, timings, outcome, error) and the jobs its run started. Platform admins only.",
  auth: "platform_admin",
  errors: ["job_not_found"],
  input: { job_id: jobIdField },
  output: z.object({ job: adminJobSchema, attempts: z.array(attemptSchema), follow_ups: z.array(followUpSchema) }),
  http: [{ method: "get", path: JOB, rename: AS_ID }],
  async run({ services }, input) {
    const d = await detailOf(services, input.job_id);
    return { job: adminJobView(d.job), attempts: d.attempts.map(attemptView), follow_ups: d.follow_ups };
  },
});

export const cancelAdminJob = defineOperation({
  name: "admin.cancel_job",
  title: "Cancel any job (operators)",
  description:
    "Cancels any job: a queued one ends canceled at once, a running one is stopped by its worker (202, canceled: true). A job that " +
    "has already ended is left as it is (200, canceled: false). Audited. Platform admins only.",
  auth: "platform_admin",
  errors: ["job_not_found"],
  input: { job_id: jobIdField },
  output: z.object({ job: adminJobSchema, canceled: z.boolean() }),
  http: [{ method: "post", path: `${JOB}/cancel`, rename: AS_ID, status: 202, otherStatus: [200] }],
  async run(call, input) {
    const { services } = call;
    const row = await cancelAnyJob(services.db, input.job_id, services.clock.now());
    if (!row) return new WithStatus(200, { job: adminJobView((await detailOf(services, input.job_id)).job), canceled: false });
    if (row.status === "running") signalCancel(input.job_id);
    await record(call, "job.cancel", row.tenant_id, { job_id: input.job_id });
    return { job: adminJobView((await detailOf(services, input.job_id)).job), canceled: true };
  },
});

export const retryAdminJob = defineOperation({
  name: "admin.retry_job",
  title: "Retry a failed job (operators)",
  description:
    "A failed or refused job runs again (202): the same row, so the same identity, checked again when it is claimed. A fix job is " +
    "never restarted, and a job that has not failed cannot be retried (409 conflict, details.reason). Audited. Platform admins only.",
  auth: "platform_admin",
  errors: ["job_not_found", "conflict"],
  input: { job_id: jobIdField },
  output: z.object({ job: adminJobSchema }),
  http: [{ method: "post", path: `${JOB}/retry`, rename: AS_ID, status: 202 }],
  async run(call, input) {
    const { services } = call;
    const before = await detailOf(services, input.job_id);
    if (!before.job.restartable) {
      throw new AppError("conflict", { message: "This job kind is never restarted (a fix job): submit a new job instead.", details: { reason: "not_restartable" } });
    }
    const [row] = await requeueJobs(services.db, [input.job_id], services.clock.now());
    if (!row) throw new AppError("conflict", { message: "Only a failed or refused job can be retried.", details: { reason: "not_failed" } });
    await dispatch(services, [row]);
    await record(call, "job.retry", row.tenant_id, { job_id: input.job_id, kind: row.kind, previous_error_code: before.job.error_code });
    return { job: adminJobView((await detailOf(services, input.job_id)).job) };
  },
});

/** Replay's filter must select something: at least one of these, not empty. */
const REPLAY_NEEDS = ["kind", "error_code", "pool", "org"] as const;

export const replayAdminJobs = defineOperation({
  name: "admin.replay_jobs",
  title: "Replay the failed jobs a filter selects (operators)",
  description:
    `Every requeueable job the filter selects (failed or refused, not a fix job) runs again, at most ${MAX_REPLAY} per call (202: ` +
    "their ids, and `more` when more matched). The filter needs at least one of kind, error_code, pool or org. Audited per " +
    "organisation. Platform admins only.",
  auth: "platform_admin",
  input: jobFilterFields,
  inputRules: { anyOf: REPLAY_NEEDS.map((k) => ({ required: [k], properties: { [k]: { minLength: 1 } } })) },
  refine(input, ctx) {
    if (!REPLAY_NEEDS.some((k) => input[k])) {
      ctx.addIssue({ code: "custom", path: [], message: "A replay needs a filter: at least one of kind, error_code, pool or org." });
    }
  },
  output: z.object({ replayed: z.number().int(), job_ids: z.array(z.string()), more: z.boolean() }),
  http: [{ method: "post", path: "/api/v1/admin/jobs/replay", status: 202 }],
  async run(call, input) {
    const { services } = call;
    const f = filterOf(input);
    const ids = await requeueableIds(services.db, f, MAX_REPLAY + 1);
    const rows = await requeueJobs(services.db, ids.slice(0, MAX_REPLAY), services.clock.now());
    await dispatch(services, rows);
    for (const org of new Set(rows.map((j) => j.tenant_id))) {
      const mine = rows.filter((j) => j.tenant_id === org);
      await record(call, "job.replay", org, { filter: f, count: mine.length, job_ids: mine.map((j) => j.id) });
    }
    return { replayed: rows.length, job_ids: rows.map((j) => j.id), more: ids.length > MAX_REPLAY };
  },
});

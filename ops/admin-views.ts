/**
 * What the operators' API and pages show of a job, an attempt and a failure group: names beside
 * ids, the failure in words (core/jobs/failure.ts), never a lease token and never the chat thread's
 * session ID (an operator acts on the job row; a thread's ID is its owner's, docs/security.md). The views carry no
 * parameters or result: the console's job page alone shows those, as stored (redacted when stored)
 * and bounded (api/routes/admin-job-parts.ts). The schemas below are what the operators' API answers (ops/admin-jobs.ts).
 */
import { z } from "zod";
import { codeMessage } from "../core/jobs/failure";
import { JOB_STATUSES } from "./job-view";
import type { AdminJobRow, AttemptRow, FailureGroup } from "../queues/sql/adminJobs";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const messageOf = (code: string | null, message: string | null) => (code === null ? null : (message ?? codeMessage(code)));

export function adminJobView(j: AdminJobRow) {
  return {
    id: j.id,
    kind: j.kind,
    pool: j.pool,
    status: j.status,
    system: j.system,
    org_id: j.tenant_id,
    org_name: j.org_name,
    repo_id: j.repo_id,
    repo_name: j.repo_name,
    origin_job_id: j.origin_job_id,
    actor_user_id: j.actor_user_id,
    actor_email: j.actor_email,
    error_code: j.error_code,
    message: messageOf(j.error_code, j.error_message),
    attempts: j.attempts,
    max_attempts: j.max_attempts,
    restartable: j.restartable,
    cancel_requested: j.cancel_requested_at !== null,
    lease_owner: j.lease_owner,
    lease_expires_at: iso(j.lease_expires_at),
    progress: j.progress_total === null ? null : { done: j.progress_done ?? 0, total: j.progress_total },
    created_at: iso(j.created_at),
    run_at: iso(j.run_at),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    retryable: j.restartable && (j.status === "failed" || j.status === "refused"),
    cancelable: j.status === "queued" || j.status === "running",
  };
}

export type AdminJobView = ReturnType<typeof adminJobView>;

export function attemptView(a: AttemptRow) {
  return {
    attempt: a.attempt,
    lease_owner: a.lease_owner,
    started_at: iso(a.started_at),
    ended_at: iso(a.ended_at),
    duration_ms: a.started_at ? a.ended_at.getTime() - a.started_at.getTime() : null,
    outcome: a.outcome,
    error_code: a.error_code,
    message: messageOf(a.error_code, a.error_message),
  };
}

export type AttemptView = ReturnType<typeof attemptView>;

export function groupView(g: FailureGroup) {
  return { kind: g.kind, error_code: g.error_code, count: g.count, requeueable: g.requeueable, last_at: iso(g.last_at), message: messageOf(g.error_code, g.message) };
}

export type GroupView = ReturnType<typeof groupView>;

const time = z.string().nullable();

/** What adminJobView answers. */
export const adminJobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  pool: z.string(),
  status: z.enum(JOB_STATUSES),
  system: z.boolean(),
  org_id: z.string().nullable(),
  org_name: z.string().nullable(),
  repo_id: z.string().nullable(),
  repo_name: z.string().nullable(),
  origin_job_id: z.string().nullable(),
  actor_user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  error_code: z.string().nullable(),
  message: z.string().nullable().describe("The failure in words (null while there is none)."),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  restartable: z.boolean(),
  cancel_requested: z.boolean(),
  lease_owner: z.string().nullable(),
  lease_expires_at: time,
  progress: z.object({ done: z.number(), total: z.number() }).nullable(),
  created_at: time,
  run_at: time,
  started_at: time,
  finished_at: time,
  retryable: z.boolean(),
  cancelable: z.boolean(),
});

/** What attemptView answers. */
export const attemptSchema = z.object({
  attempt: z.number().int(),
  lease_owner: z.string().nullable(),
  started_at: time,
  ended_at: time,
  duration_ms: z.number().nullable(),
  outcome: z.string(),
  error_code: z.string().nullable(),
  message: z.string().nullable(),
});

/** What groupView answers. */
export const groupSchema = z.object({
  kind: z.string(),
  error_code: z.string().nullable(),
  count: z.number().int(),
  requeueable: z.number().int(),
  last_at: time,
  message: z.string().nullable(),
});

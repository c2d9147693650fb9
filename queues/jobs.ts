/**
 * Job rows and the catalog of job kinds.
 *
 * States of a job row (JOB-1, JOB-3, JOB-4):
 *
 *   queued ──claim──▶ running ──persist ok──▶ succeeded
 *     ▲                 │ ├──handler error, attempts left──▶ queued (run_at = now + backoff)
 *     │                 │ ├──handler error, none left──▶ failed
 *     │                 │ ├──recheck refused──▶ refused          (nothing written)
 *     │                 │ ├──cancel──▶ canceled
 *     └──lease expired──┘ └──lease expired / shutdown, kind not restartable──▶ abandoned
 *
 * Invariants: `lease_token` is set exactly while `running` (a CHECK holds it);
 * every write a worker makes names its lease token in the `where` clause, so a
 * worker whose lease was reclaimed updates zero rows and stops. The row keeps
 * its identity for its whole life: a retry is the same row, hence the same
 * primary session (JOB-5).
 */
import type { Selectable } from "kysely";
import { AppError } from "../core/errors";
import type { JobsTable, JobSchedulesTable, JobStatus } from "../db/schema";

// The kind definitions live in core/jobs/ (api/ and ops/ read them; workers/ implement them).
export { isPool, POOLS, type JobKind, type Pool } from "../core/jobs/kind";

export type { JobStatus };
export type JobRow = Selectable<JobsTable>;
export type ScheduleRow = Selectable<JobSchedulesTable>;

export const TERMINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "canceled", "abandoned", "refused"];

/** Retry backoff: base * 2^(attempt-1), capped. */
/** A kind with a repository level was given none (at submit, or a handler's context without one). */
export function repoRequired(): AppError {
  return new AppError("validation_failed", { message: "This job needs a repository.", details: { field: "repo" } });
}

export const RETRY_BACKOFF_BASE_MS = 1000;
export const RETRY_BACKOFF_MAX_MS = 5 * 60 * 1000;

export function backoffMs(attempts: number, base = RETRY_BACKOFF_BASE_MS, max = RETRY_BACKOFF_MAX_MS): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

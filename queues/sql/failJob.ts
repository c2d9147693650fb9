/**
 * failJob: a handler failed. Retryable failures of restartable kinds go back
 * to `queued` with exponential backoff while attempts remain (the same row, so
 * the same identity and primary session: JOB-5); anything else ends `failed`.
 * Fenced by the lease token; returns the new status, or undefined if the
 * lease was lost.
 */
import { sql } from "kysely";
import type { Db, Tx } from "../../db/schema";
import { RETRY_BACKOFF_BASE_MS, RETRY_BACKOFF_MAX_MS, type JobStatus } from "../jobs";

export interface FailOptions {
  id: string;
  token: string;
  now: Date;
  errorCode: string;
  /** A safe sentence beside the code (core/jobs/failure.ts). */
  errorMessage?: string;
  retryable: boolean;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

export async function failJob(db: Db | Tx, o: FailOptions): Promise<{ status: JobStatus; runAt: Date } | undefined> {
  const base = o.backoffBaseMs ?? RETRY_BACKOFF_BASE_MS;
  const max = o.backoffMaxMs ?? RETRY_BACKOFF_MAX_MS;
  const retry = sql<boolean>`(${o.retryable} and restartable and attempts < max_attempts)`;
  const r = await sql<{ status: JobStatus; run_at: Date }>`
    update jobs
       set status = case when ${retry} then 'queued' else 'failed' end,
           run_at = case when ${retry}
                         then ${o.now}::timestamptz + least(${base}::float8 * power(2, attempts - 1), ${max}::float8) * interval '1 millisecond'
                         else run_at end,
           dispatched_at = ${o.now},
           error_code = ${o.errorCode},
           error_message = ${o.errorMessage ?? null},
           lease_owner = null, lease_token = null, lease_expires_at = null,
           finished_at = case when ${retry} then null else ${o.now}::timestamptz end,
           updated_at = ${o.now}
     where id = ${o.id} and lease_token = ${o.token} and status = 'running'
    returning status, run_at`.execute(db);
  const row = r.rows[0];
  return row ? { status: row.status, runAt: row.run_at } : undefined;
}

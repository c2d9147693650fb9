/**
 * reclaimExpiredLeases: the one sweeper (JOB-4). Running rows whose lease
 * deadline passed belong to a worker that died or stalled. A restartable job
 * with attempts left goes back to `queued` (rebuilt from its stored params and
 * rechecked by the next worker); one out of attempts ends `failed`
 * (`lease_expired`); a non-restartable one (fix) ends `abandoned` and never
 * runs again. Clearing the token fences the old worker out.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import type { JobStatus } from "../jobs";

export interface Reclaimed {
  id: string;
  pool: string;
  kind: string;
  status: JobStatus;
  attempts: number;
  run_at: Date;
}

export async function reclaimExpiredLeases(db: Db, o: { now: Date; limit?: number }): Promise<Reclaimed[]> {
  const r = await sql<Reclaimed>`
    with expired as (
      select id from jobs
      where status = 'running' and lease_expires_at <= ${o.now}
      order by lease_expires_at
      limit ${o.limit ?? 500}
      for update skip locked
    )
    update jobs j
       set status = case when j.restartable and j.attempts < j.max_attempts then 'queued'
                         when j.restartable then 'failed'
                         else 'abandoned' end,
           error_code = case when j.restartable then 'lease_expired' else 'interrupted' end,
           run_at = ${o.now}, dispatched_at = ${o.now},
           lease_owner = null, lease_token = null, lease_expires_at = null,
           finished_at = case when j.restartable and j.attempts < j.max_attempts then null else ${o.now}::timestamptz end,
           updated_at = ${o.now}
      from expired
     where j.id = expired.id
    returning j.id, j.pool, j.kind, j.status, j.attempts, j.run_at`.execute(db);
  return r.rows;
}

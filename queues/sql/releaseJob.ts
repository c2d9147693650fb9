/**
 * releaseJob: a worker shutting down hands its running job back. A
 * restartable kind returns to `queued` at once (no wait for the lease); a
 * non-restartable one (fix) ends `abandoned` (JOB-4). Fenced by the lease token.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import type { JobStatus } from "../jobs";

export async function releaseJob(db: Db, o: { id: string; token: string; now: Date }): Promise<JobStatus | undefined> {
  const r = await sql<{ status: JobStatus }>`
    update jobs
       set status = case when restartable then 'queued' else 'abandoned' end,
           error_code = case when restartable then error_code else 'interrupted' end,
           run_at = ${o.now}, dispatched_at = null,
           lease_owner = null, lease_token = null, lease_expires_at = null,
           finished_at = case when restartable then null else ${o.now}::timestamptz end,
           updated_at = ${o.now}
     where id = ${o.id} and lease_token = ${o.token} and status = 'running'
    returning status`.execute(db);
  return r.rows[0]?.status;
}

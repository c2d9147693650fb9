/**
 * cancelJob: the owner's cancel. A queued job ends `canceled` at once; a
 * running one gets `cancel_requested_at`, which its worker sees (renewal,
 * cancel watch or the in-process signal) and turns into an abort of the
 * handler's AbortSignal and a fenced `canceled` end. Terminal jobs are left
 * as they are. Scoped to the identity: another caller's job is not found.
 */
import { sql, type RawBuilder } from "kysely";
import type { Identity } from "../../core/execution/identity";
import type { Db } from "../../db/schema";
import type { JobRow } from "../jobs";

export async function cancelJob(db: Db, identity: Identity, id: string, now: Date): Promise<JobRow | undefined> {
  return cancel(db, id, now, sql`and system = false
       and tenant_id = ${identity.tenant_id} and subject_id = ${identity.subject_id} and session_id = ${identity.session_id}`);
}

/** An operator's cancel (the console): the same transition for any job, system jobs included. */
export async function cancelAnyJob(db: Db, id: string, now: Date): Promise<JobRow | undefined> {
  return cancel(db, id, now, sql``);
}

/** The one cancel transition; `scope` narrows which rows it may touch. */
async function cancel(db: Db, id: string, now: Date, scope: RawBuilder<unknown>): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`
    update jobs
       set status = case when status = 'queued' then 'canceled' else status end,
           error_code = case when status = 'queued' then 'canceled' else error_code end,
           finished_at = case when status = 'queued' then ${now}::timestamptz else finished_at end,
           cancel_requested_at = coalesce(cancel_requested_at, ${now}::timestamptz),
           updated_at = ${now}
     where id = ${id} ${scope}
       and status in ('queued', 'running')
    returning *`.execute(db);
  return r.rows[0];
}

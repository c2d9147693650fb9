/**
 * eraseSessionJobQuotes: one bounded batch of a session's end (queues/memory-erasure.ts). In one
 * statement, the params and result of up to `limit` finished AI/fix jobs of the session become
 * markers; answers what it erased, whether a full batch was taken (`more`) and how many of the
 * session's AI/fix jobs are still unfinished (`pending`).
 */
import { sql } from "kysely";
import type { CleanupTarget } from "../../core/retention/cleaners";
import type { Db, Tx } from "../../db/schema";
import { TERMINAL_STATUSES } from "../jobs";
import { erasureMarker, MEMORY_QUOTING_KINDS, type JobErasureCounts } from "./eraseRepoJobQuotes";

export async function eraseSessionJobQuotes(db: Db | Tx, t: CleanupTarget, now: Date, limit: number): Promise<JobErasureCounts & { more: boolean }> {
  const params = JSON.stringify({ erased: true });
  const r = await sql<{ results: number; params: number; n: number; pending: number }>`
    with pick as (
      select id from jobs
       where tenant_id = ${t.tenant_id} and session_id = ${t.session_id}
         and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status in (${sql.join(TERMINAL_STATUSES)})
         and not (params @> '{"erased": true}'::jsonb)
       limit ${limit}),
    hit as (
      update jobs j set params = ${params}::jsonb,
                        result = case when j.result is null then null else ${erasureMarker("session_ended", now)}::jsonb end
        from pick where j.id = pick.id
      returning (j.result is not null) as had_result)
    select (select count(*) from hit where had_result)::int as results, (select count(*) from hit)::int as params,
           (select count(*) from hit)::int as n,
           (select count(*) from jobs where tenant_id = ${t.tenant_id} and session_id = ${t.session_id}
              and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status not in (${sql.join(TERMINAL_STATUSES)}))::int as pending`.execute(db);
  const row = r.rows[0]!;
  return { results: row.results, params: row.params, idempotency: 0, pending: row.pending, more: row.n >= limit };
}

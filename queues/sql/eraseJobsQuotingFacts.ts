/**
 * eraseJobsQuotingFacts: the cascade of a forget (queues/memory-erasure.ts). In one statement, the
 * results of OTHER sessions' finished AI/fix jobs on the repository whose `sources` cite one of
 * `factIds` (the forgotten facts, `{scope: "repository", fact_id}`) become the marker
 * `quoted_fact_forgotten`, and their idempotency rows go. `pending`: other sessions' AI/fix jobs on the
 * repository not finished yet. Only jobs created by the forget (`before`) count: a fact re-learned later
 * has the same derived ID, and later answers citing it are not erased (nor waited for).
 */
import { sql } from "kysely";
import type { CleanupTarget } from "../../core/retention/cleaners";
import type { Db, Tx } from "../../db/schema";
import { TERMINAL_STATUSES } from "../jobs";
import { erasureMarker, MEMORY_QUOTING_KINDS, type JobErasureCounts } from "./eraseRepoJobQuotes";

export async function eraseJobsQuotingFacts(db: Db | Tx, t: CleanupTarget & { repo_id: string }, factIds: readonly string[], now: Date, before: Date): Promise<JobErasureCounts> {
  if (factIds.length === 0) return { results: 0, params: 0, idempotency: 0, pending: 0 };
  const r = await sql<{ results: number; idempotency: number; pending: number }>`
    with hit as (
      update jobs j set result = ${erasureMarker("quoted_fact_forgotten", now)}::jsonb
       where j.tenant_id = ${t.tenant_id} and j.repo_id = ${t.repo_id} and j.session_id is distinct from ${t.session_id}
         and j.kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and j.status in (${sql.join(TERMINAL_STATUSES)})
         and j.created_at <= ${before} and j.result is not null and not coalesce(j.result @> '{"erased": true}'::jsonb, false)
         and jsonb_typeof(j.result -> 'sources') = 'array'
         and exists (select 1 from jsonb_array_elements(j.result -> 'sources') s
                      where s ->> 'scope' = 'repository' and s ->> 'fact_id' = any(${[...factIds]}::text[]))
      returning j.id),
    keys as (
      delete from job_idempotency_keys k where k.tenant_id = ${t.tenant_id} and k.job_id in (select id from hit)
      returning 1)
    select (select count(*) from hit)::int as results, (select count(*) from keys)::int as idempotency,
           (select count(*) from jobs where tenant_id = ${t.tenant_id} and repo_id = ${t.repo_id} and session_id is distinct from ${t.session_id}
              and created_at <= ${before} and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status not in (${sql.join(TERMINAL_STATUSES)}))::int as pending`.execute(db);
  const row = r.rows[0]!;
  return { results: row.results, params: 0, idempotency: row.idempotency, pending: row.pending };
}

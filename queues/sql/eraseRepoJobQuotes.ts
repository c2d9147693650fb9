/**
 * eraseRepoJobQuotes: a clear or a forget of session S on repository R (queues/memory-erasure.ts). In one
 * statement, the `result` of S's finished AI/fix jobs on R becomes an erasure marker and their
 * idempotency rows are deleted; S's AI/fix jobs on R still queued or running are counted `pending`.
 * A marker is never overwritten, so a second pass counts 0. The erasure's shared shapes (the kinds that
 * quote memory, the causes, the counts, the marker) are here; the other erasures import them.
 */
import { sql } from "kysely";
import { AI_KIND } from "../../core/jobs/ai";
import { FIX_KIND } from "../../core/jobs/fix";
import type { CleanupTarget } from "../../core/retention/cleaners";
import type { Db, Tx } from "../../db/schema";
import { TERMINAL_STATUSES } from "../jobs";

/** Job kinds whose parameters and results quote memory. */
export const MEMORY_QUOTING_KINDS: readonly string[] = [AI_KIND, FIX_KIND];

export type ErasureCause = "namespace_cleared" | "session_forgotten" | "session_ended" | "quoted_fact_forgotten";

export interface JobErasureCounts {
  /** Job results replaced by the erasure marker. */
  results: number;
  /** Job parameters replaced by the erasure marker (session end only). */
  params: number;
  /** Idempotency rows deleted. */
  idempotency: number;
  /** Jobs of the scope still queued or running (left for a later pass). */
  pending: number;
}

/** What an erased result becomes. */
export const erasureMarker = (cause: ErasureCause, now: Date) => JSON.stringify({ erased: true, cause, erased_at: now.toISOString() });

export async function eraseRepoJobQuotes(db: Db | Tx, t: CleanupTarget & { repo_id: string }, cause: "namespace_cleared" | "session_forgotten", now: Date): Promise<JobErasureCounts> {
  const r = await sql<{ results: number; idempotency: number; pending: number }>`
    with hit as (
      update jobs set result = ${erasureMarker(cause, now)}::jsonb
       where tenant_id = ${t.tenant_id} and session_id = ${t.session_id} and repo_id = ${t.repo_id}
         and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status in (${sql.join(TERMINAL_STATUSES)})
         and result is not null and not coalesce(result @> '{"erased": true}'::jsonb, false)
      returning id),
    keys as (
      delete from job_idempotency_keys k
       where k.tenant_id = ${t.tenant_id} and k.session_id = ${t.session_id}
         and k.job_id in (select j.id from jobs j where j.tenant_id = ${t.tenant_id} and j.session_id = ${t.session_id}
                            and j.repo_id = ${t.repo_id} and j.kind in (${sql.join(MEMORY_QUOTING_KINDS)})
                            and j.status in (${sql.join(TERMINAL_STATUSES)}))
      returning 1)
    select (select count(*) from hit)::int as results, (select count(*) from keys)::int as idempotency,
           (select count(*) from jobs where tenant_id = ${t.tenant_id} and session_id = ${t.session_id} and repo_id = ${t.repo_id}
              and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status not in (${sql.join(TERMINAL_STATUSES)}))::int as pending`.execute(db);
  const row = r.rows[0]!;
  return { results: row.results, params: 0, idempotency: row.idempotency, pending: row.pending };
}

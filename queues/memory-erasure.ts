/**
 * Erasure in the job store (docs/memory.md, "Erasure that cascades"): the relational rows that
 * quote a session's memory. AI and fix jobs recall the caller's session memory (namespace = the
 * repository) and the repository's durable memory and keep the answer built from it as their
 * result (with the cited fact IDs); their parameters hold the caller's question or problem; their
 * idempotency rows hold a hash of those parameters and point at the job.
 *
 * What is erased (the job row keeps its id, kind, status, repository, identity, error code and
 * times, for audit; only the quoted content goes):
 *   - a namespace cleared by session S in repository R, or S's durable writes to R forgotten:
 *     the `result` of S's finished AI/fix jobs on R becomes an erasure marker
 *     `{erased: true, cause, erased_at}` and their idempotency rows are deleted;
 *   - session S ended (revoked or expired; the cleanup sweep): the `params` and `result` of every
 *     finished AI/fix job of S become markers; the idempotency cleaner removes S's keys.
 *   - S's durable writes to R forgotten: also the `result` of OTHER sessions' finished AI/fix jobs
 *     on R that quote a forgotten fact — "quote" meaning the result's `sources` (the facts the
 *     answer was built from, `{scope: "repository", fact_id}`) names a fact the forget removed
 *     (live or in history) — becomes a marker `{erased: true, cause: "quoted_fact_forgotten", …}`
 *     and their idempotency rows go.
 * A job of S still queued or running is not touched; it counts as `pending` (the sweep erases it
 * once it ends; for a clear or forget, the session's end does). Other sessions' AI/fix jobs on R
 * still queued or running when a forget runs are counted `pending` too (they may have recalled a
 * forgotten fact before it went; nothing retries them).
 * Invariants: only terminal rows are written; a marker is never overwritten, so a second pass
 * counts 0; bounded batches (`limit`) for the sweep.
 */
import { sql } from "kysely";
import { AI_KIND } from "../core/jobs/ai";
import { FIX_KIND } from "../core/jobs/fix";
import type { CleanupTarget, SessionCleaner } from "../core/retention/cleaners";
import type { Db } from "../db/schema";
import { TERMINAL_STATUSES } from "./jobs";

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

const marker = (cause: ErasureCause, now: Date) => JSON.stringify({ erased: true, cause, erased_at: now.toISOString() });

/**
 * Erases, in one statement, the quoted content of a session's finished AI/fix jobs on one
 * repository (a clear or a forget): results become markers, their idempotency rows go.
 */
export async function eraseRepoJobQuotes(db: Db, t: CleanupTarget & { repo_id: string }, cause: "namespace_cleared" | "session_forgotten", now: Date): Promise<JobErasureCounts> {
  const r = await sql<{ results: number; idempotency: number; pending: number }>`
    with hit as (
      update jobs set result = ${marker(cause, now)}::jsonb
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

/**
 * The cascade of a forget: erases, in one statement, the results of OTHER sessions' finished AI/fix
 * jobs on the repository whose `sources` cite one of `factIds` (the forgotten facts), and their
 * idempotency rows. `pending`: other sessions' AI/fix jobs on the repository not finished yet.
 */
export async function eraseJobsQuotingFacts(db: Db, t: CleanupTarget & { repo_id: string }, factIds: readonly string[], now: Date): Promise<JobErasureCounts> {
  if (factIds.length === 0) return { results: 0, params: 0, idempotency: 0, pending: 0 };
  const r = await sql<{ results: number; idempotency: number; pending: number }>`
    with hit as (
      update jobs j set result = ${marker("quoted_fact_forgotten", now)}::jsonb
       where j.tenant_id = ${t.tenant_id} and j.repo_id = ${t.repo_id} and j.session_id is distinct from ${t.session_id}
         and j.kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and j.status in (${sql.join(TERMINAL_STATUSES)})
         and j.result is not null and not coalesce(j.result @> '{"erased": true}'::jsonb, false)
         and jsonb_typeof(j.result -> 'sources') = 'array'
         and exists (select 1 from jsonb_array_elements(j.result -> 'sources') s
                      where s ->> 'scope' = 'repository' and s ->> 'fact_id' = any(${[...factIds]}::text[]))
      returning j.id),
    keys as (
      delete from job_idempotency_keys k where k.tenant_id = ${t.tenant_id} and k.job_id in (select id from hit)
      returning 1)
    select (select count(*) from hit)::int as results, (select count(*) from keys)::int as idempotency,
           (select count(*) from jobs where tenant_id = ${t.tenant_id} and repo_id = ${t.repo_id} and session_id is distinct from ${t.session_id}
              and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status not in (${sql.join(TERMINAL_STATUSES)}))::int as pending`.execute(db);
  const row = r.rows[0]!;
  return { results: row.results, params: 0, idempotency: row.idempotency, pending: row.pending };
}

/**
 * One bounded batch of a session's end: params and result of up to `limit` finished AI/fix jobs
 * of the session become markers. Answers what it erased and how many jobs remain unfinished.
 */
export async function eraseSessionJobQuotes(db: Db, t: CleanupTarget, now: Date, limit: number): Promise<JobErasureCounts & { more: boolean }> {
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
                        result = case when j.result is null then null else ${marker("session_ended", now)}::jsonb end
        from pick where j.id = pick.id
      returning (j.result is not null) as had_result)
    select (select count(*) from hit where had_result)::int as results, (select count(*) from hit)::int as params,
           (select count(*) from hit)::int as n,
           (select count(*) from jobs where tenant_id = ${t.tenant_id} and session_id = ${t.session_id}
              and kind in (${sql.join(MEMORY_QUOTING_KINDS)}) and status not in (${sql.join(TERMINAL_STATUSES)}))::int as pending`.execute(db);
  const row = r.rows[0]!;
  return { results: row.results, params: row.params, idempotency: 0, pending: row.pending, more: row.n >= limit };
}

/**
 * The session cleaner for job rows (RET-1): erases what the ended session's AI/fix jobs quote,
 * in bounded batches; done when nothing is left to erase and none of them is still unfinished.
 */
export function jobQuotesCleaner(db: Db, clock: { now(): Date }): SessionCleaner {
  return {
    name: "job-quotes",
    async purgeSession(t, { limit }) {
      const r = await eraseSessionJobQuotes(db, t, clock.now(), limit);
      return { removed: r.params, done: !r.more && r.pending === 0 };
    },
  };
}

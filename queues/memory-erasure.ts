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
 * A job of S still queued or running is not touched; it counts as `pending`. Other sessions' AI/fix
 * jobs on R created before a forget and still queued or running are counted `pending` too (they may
 * have recalled a forgotten fact before it went). The stored receipts of clears and forgets record
 * which stores are pending; the cleanup sweep retries them (`retryPendingErasures`) until done.
 * Invariants: only terminal rows are written; a marker is never overwritten, so a second pass
 * counts 0; bounded batches (`limit`) for the sweep.
 */
import { sql } from "kysely";
import { AI_KIND } from "../core/jobs/ai";
import { FIX_KIND } from "../core/jobs/fix";
import type { CleanupTarget, SessionCleaner } from "../core/retention/cleaners";
import { mergeStoreReceipts } from "../core/retention/receipts";
import type { Db, NamespaceStoreReceipt } from "../db/schema";
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
export async function eraseJobsQuotingFacts(db: Db, t: CleanupTarget & { repo_id: string }, factIds: readonly string[], now: Date, before: Date): Promise<JobErasureCounts> {
  if (factIds.length === 0) return { results: 0, params: 0, idempotency: 0, pending: 0 };
  // Only jobs created by the forget (`before`) can have recalled a forgotten fact: a fact re-learned later
  // has the same derived ID, and later answers citing it are not erased (nor waited for).
  const r = await sql<{ results: number; idempotency: number; pending: number }>`
    with hit as (
      update jobs j set result = ${marker("quoted_fact_forgotten", now)}::jsonb
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

const jobStore = (store: string, rows: number, pending: boolean): NamespaceStoreReceipt => ({ store, entities: 0, facts: 0, history: 0, rows, status: pending ? "pending" : "done" });
const isPending = (stores: readonly NamespaceStoreReceipt[], store: string) => stores.some((s) => s.store === store && s.status === "pending");

export interface RetryCounts {
  /** Receipts visited (each had a pending job store). */
  receipts: number;
  /** Receipts that became done in this pass. */
  done: number;
}

/**
 * One bounded pass over stored receipts whose job stores are pending (the cleanup sweep runs it every
 * minute): for each of at most `limit` namespace receipts and `limit` forget receipts, least recently
 * updated first, it redoes the pending erasure for the jobs that have ended since — the session's own
 * results (`jobs:results`, `jobs:idempotency`) and, for a forget, other sessions' results citing a
 * forgotten fact (`jobs:quoting-results`, only jobs created by the forget) — adds the counts to the
 * stored receipt and flips each store to done once nothing of it is pending (`done` once every store is).
 * Concurrency: each receipt row is taken `FOR UPDATE SKIP LOCKED` in the transaction that erases and
 * writes its counts, so two sweeps racing never work on one receipt at once; and the erasures
 * themselves only touch rows not yet marked, so a count is never added twice. Idempotent: a receipt with
 * nothing pending is never picked again. A vector store left pending by a clear is not this pass's (it
 * goes with the expiry cleanup), so such a receipt stays not done.
 */
export async function retryPendingErasures(db: Db, now: Date, limit: number): Promise<RetryCounts> {
  const out: RetryCounts = { receipts: 0, done: 0 };
  await db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("namespace_erasure_receipts")
      .select(["tenant_id", "session_id", "repo_id", "stores"])
      .where("done", "=", false)
      .where(sql<boolean>`stores @> '[{"store": "jobs:results", "status": "pending"}]'::jsonb`)
      .orderBy("updated_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      const j = await eraseRepoJobQuotes(tx, row, "namespace_cleared", now);
      const stores = mergeStoreReceipts(row.stores, [jobStore("jobs:results", j.results, j.pending > 0), jobStore("jobs:idempotency", j.idempotency, false)]);
      const done = stores.every((s) => s.status === "done");
      await tx
        .updateTable("namespace_erasure_receipts")
        .set({ stores: JSON.stringify(stores), done, updated_at: now })
        .where("tenant_id", "=", row.tenant_id)
        .where("session_id", "=", row.session_id)
        .where("repo_id", "=", row.repo_id)
        .execute();
      out.receipts++;
      if (done) out.done++;
    }
  });
  await db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("forget_erasure_receipts")
      .select(["tenant_id", "session_id", "repo_id", "stores", "fact_ids", "forgotten_at"])
      .where("done", "=", false)
      .where((eb) =>
        eb.or([
          sql<boolean>`stores @> '[{"store": "jobs:results", "status": "pending"}]'::jsonb`,
          sql<boolean>`stores @> '[{"store": "jobs:quoting-results", "status": "pending"}]'::jsonb`,
        ]),
      )
      .orderBy("updated_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      const t = { tenant_id: row.tenant_id, session_id: row.session_id, repo_id: row.repo_id };
      const add: NamespaceStoreReceipt[] = [];
      if (isPending(row.stores, "jobs:results")) {
        const j = await eraseRepoJobQuotes(tx, t, "session_forgotten", now);
        add.push(jobStore("jobs:results", j.results, j.pending > 0), jobStore("jobs:idempotency", j.idempotency, false));
      }
      let factIds = row.fact_ids;
      if (isPending(row.stores, "jobs:quoting-results")) {
        const q = await eraseJobsQuotingFacts(tx, t, row.fact_ids, now, new Date(row.forgotten_at));
        add.push(jobStore("jobs:quoting-results", q.results + q.idempotency, q.pending > 0));
        if (q.pending === 0) factIds = [];
      }
      const stores = mergeStoreReceipts(row.stores, add);
      const done = stores.every((s) => s.status === "done");
      await tx
        .updateTable("forget_erasure_receipts")
        .set({ stores: JSON.stringify(stores), fact_ids: JSON.stringify(factIds), done, updated_at: now })
        .where("tenant_id", "=", row.tenant_id)
        .where("session_id", "=", row.session_id)
        .where("repo_id", "=", row.repo_id)
        .execute();
      out.receipts++;
      if (done) out.done++;
    }
  });
  return out;
}

/**
 * The session cleaner for job rows (RET-1): erases what the ended session's AI/fix jobs quote,
 * in bounded batches; done when nothing is left to erase and none of them is still unfinished.
 * Its `purgeExpired` (run by every sweep) finishes the pending job stores of stored clear and
 * forget receipts (`retryPendingErasures`), `limit` receipts of each kind a sweep.
 */
export function jobQuotesCleaner(db: Db, clock: { now(): Date }): SessionCleaner {
  return {
    name: "job-quotes",
    async purgeSession(t, { limit }) {
      const r = await eraseSessionJobQuotes(db, t, clock.now(), limit);
      return { removed: r.params, done: !r.more && r.pending === 0 };
    },
    async purgeExpired(now, { limit }) {
      const r = await retryPendingErasures(db, now, limit);
      return { done: r.receipts < limit };
    },
  };
}

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
 * counts 0; bounded batches (`limit`) for the sweep. The statements are queues/sql/erase*.ts; the
 * receipts are read and written through core's receipt store (core/retention/receipt-store.ts).
 */
import type { SessionCleaner } from "../core/retention/cleaners";
import type { ErasureReceiptStore, NamespaceStoreReceipt } from "../core/retention/receipt-store";
import { mergeStoreReceipts } from "../core/retention/receipts";
import type { Db, Tx } from "../db/schema";
import { eraseJobsQuotingFacts } from "./sql/eraseJobsQuotingFacts";
import { eraseRepoJobQuotes } from "./sql/eraseRepoJobQuotes";
import { eraseSessionJobQuotes } from "./sql/eraseSessionJobQuotes";

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
export async function retryPendingErasures(receipts: ErasureReceiptStore<Tx>, now: Date, limit: number): Promise<RetryCounts> {
  const namespaces = await receipts.retryNamespaces(limit, now, async (tx, row) => {
    const j = await eraseRepoJobQuotes(tx, row, "namespace_cleared", now);
    const stores = mergeStoreReceipts(row.stores, [jobStore("jobs:results", j.results, j.pending > 0), jobStore("jobs:idempotency", j.idempotency, false)]);
    return { stores, done: stores.every((s) => s.status === "done") };
  });
  const forgets = await receipts.retryForgets(limit, now, async (tx, row) => {
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
    return { stores, fact_ids: factIds, done: stores.every((s) => s.status === "done") };
  });
  const visited = [...namespaces, ...forgets];
  return { receipts: visited.length, done: visited.filter((r) => r.done).length };
}

/**
 * The session cleaner for job rows (RET-1): erases what the ended session's AI/fix jobs quote,
 * in bounded batches; done when nothing is left to erase and none of them is still unfinished.
 * Its `purgeExpired` (run by every sweep) finishes the pending job stores of stored clear and
 * forget receipts (`retryPendingErasures`), `limit` receipts of each kind a sweep.
 */
export function jobQuotesCleaner(db: Db, receipts: ErasureReceiptStore<Tx>, clock: { now(): Date }): SessionCleaner {
  return {
    name: "job-quotes",
    async purgeSession(t, { limit }) {
      const r = await eraseSessionJobQuotes(db, t, clock.now(), limit);
      return { removed: r.params, done: !r.more && r.pending === 0 };
    },
    async purgeExpired(now, { limit }) {
      const r = await retryPendingErasures(receipts, now, limit);
      return { done: r.receipts < limit };
    },
  };
}

/**
 * The writable stores a job's `persist` gets (JOB-3, JOB-6; docs/jobs.md
 * "Writes are fenced"). The runner calls `persist` inside the transaction that
 * has already finished the job's row under its lease token — so that row is
 * locked by this transaction until it commits: no sweeper can reclaim it and
 * no other worker can hold it meanwhile — and has re-run authorize().
 * - A store kept in the relational database (PostgreSQL, PGlite) is bound to
 *   that transaction (`inTransaction(tx)`): its writes commit with the job's
 *   finish, or not at all.
 * - A store of its own (Neo4j, HugeGraph) cannot join it. Each of its writes
 *   first proves, with one statement in the fenced transaction, that the
 *   transaction is still alive (and so still holds the row), then writes. Its
 *   writes are idempotent by content (node and fact ids are content hashes), so
 *   a persist that is retried, or one whose commit failed after its writes,
 *   writes the same records again and nothing else.
 *
 * `fencedStep` is for writes a job makes before its finish that stay invisible until the finish
 * publishes them (an ingest's staged graph, db/graph/postgres/generations.ts): each runs in a short
 * transaction of its own that first locks the job row under its lease token, so a worker that lost
 * its lease stages nothing more, and the short transactions let other statements run in between.
 */
import { AppError } from "../core/errors";
import { inTransaction } from "../core/transaction";
import { holdJob } from "../queues/sql/holdJob";
import { ping } from "../queues/sql/ping";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import type { Db, Tx } from "../db/schema";
import type { PersistStores } from "./handler";

const REPOSITORY_WRITES = ["upsertFacts", "setEmbeddings", "pruneSource"] as const satisfies ReadonlyArray<keyof RepositoryMemoryStore>;

/** Fails (and so aborts the persist) unless the fenced transaction can still run a statement. */
async function stillHeld(tx: Tx): Promise<void> {
  await ping(tx);
}

function fencedRepository(store: RepositoryMemoryStore, tx: Tx): RepositoryMemoryStore {
  if (store.inTransaction) return store.inTransaction(tx);
  const fenced = Object.create(store) as RepositoryMemoryStore;
  for (const name of REPOSITORY_WRITES) {
    const write = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(fenced, name, {
      value: async (...args: unknown[]) => {
        await stillHeld(tx);
        return write(...args);
      },
    });
  }
  return fenced;
}

export function fencedStores(stores: PersistStores, tx: Tx): PersistStores {
  return stores.repository ? { repository: fencedRepository(stores.repository, tx) } : {};
}

/** The job attempt a fenced step writes for: its id and lease token. */
export interface JobFence {
  jobId: string;
  token: string;
}

/** Runs `fn` in a short transaction that holds the job row under its lease token, or fails (`conflict`) without running it. */
export function fencedStep<T>(db: Db, fence: JobFence, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    if (!(await holdJob(tx, { id: fence.jobId, token: fence.token }))) throw new AppError("conflict", { message: "This job's lease was lost; its staged writes stop here." });
    return fn(tx);
  });
}

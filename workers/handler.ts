/**
 * What a job handler is: a job kind (pool, restartable, attempts, repository
 * level, params schema — see queues/jobs.ts) plus `run`.
 *
 * `run` executes under the job's own ExecutionContext (identity frozen,
 * AbortSignal tied to lease loss, cancel and shutdown). It gets no writable
 * store: it reads (`db`, a RepositoryReader in its deps) and returns its
 * writes as `persist(tx, stores)`, which the runner calls inside the one
 * transaction that holds the job's row locked under its lease token and has
 * re-run authorize(). A failed check means `persist` never runs, so a worker
 * that lost its lease (stopped, partitioned, slow) writes nothing anywhere.
 * `stores` are the writable stores, bound to that transaction (docs/jobs.md
 * "Writes are fenced").
 */
import type { RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import type { Identity } from "../core/execution/identity";
import type { Logger } from "../core/log";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import type { Db, Tx } from "../db/schema";
import { repoRequired, type JobKind, type JobRow } from "../queues/jobs";

export interface JobRunContext<P> {
  job: Readonly<JobRow>;
  params: P;
  /** null only for system kinds. */
  identity: Identity | null;
  signal: AbortSignal;
  repo?: RepoAccess;
  /** For reads. Writes go through `persist`. */
  db: Db;
  clock: Clock;
  logger: Logger;
  /**
   * Records `done` of `total` on the job row (fenced by the lease; shown by get_job, the REST job
   * read and the operators' jobs page). Never throws; call it at a bounded rate. The runner always
   * sets it; absent only where a test calls a handler directly.
   */
  progress?: (done: number, total: number) => Promise<void>;
}

/** The writable stores a `persist` gets, fenced by the job's transaction (workers/fenced-stores.ts). */
export interface PersistStores {
  /** The repository store (absent where no memory is configured). */
  repository?: RepositoryMemoryStore;
}

export interface JobOutcome {
  result?: unknown;
  /** Runs in the fenced transaction; what it returns, if anything, replaces `result` (a count only the writes know). */
  persist?: (tx: Tx, stores: PersistStores) => Promise<{ result: unknown } | void>;
}

export interface JobHandler<P = any> extends JobKind<P> {
  run(ctx: JobRunContext<P>): Promise<JobOutcome | void>;
}

/** The repository of a kind with `repoLevel`: the runner's recheck before work resolved it. */
export function requireRepo(repo: RepoAccess | undefined): RepoAccess {
  if (!repo) throw repoRequired();
  return repo;
}

export function defineHandler<P>(h: JobHandler<P>): JobHandler<P> {
  return h;
}

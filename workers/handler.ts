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
 *
 * `auth` is what the runner's recheck before work granted, handed on as it is:
 * handlers read the identity, the binding's deadline and the repository from
 * it, never again from the execution context or a second authorize().
 */
import type { Authorized, Principal, RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import { AppError } from "../core/errors";
import type { Logger } from "../core/log";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import type { Db, RepoLevel, Tx } from "../db/schema";
import { repoRequired, type JobKind, type JobRow } from "../queues/jobs";

/**
 * The runner's recheck before work (authorize() over the row's principal and primary session):
 * the identity, the binding's fixed deadline (`expiresAt`), the repository when the kind has a
 * level — and the principal it checked, the row's recorded actor and credential, which a
 * follow-up job is submitted under (./pools/child-job.ts).
 */
export interface JobAuthorized extends Authorized {
  principal: Principal;
}

/** A kind with a repository level: its recheck resolved the repository. */
export interface RepoJobAuthorized extends JobAuthorized {
  repo: RepoAccess;
}

export interface JobRunContext<P, A extends JobAuthorized | null = JobAuthorized | null> {
  job: Readonly<JobRow>;
  params: P;
  /** What the recheck before work granted; null only for system kinds. */
  auth: A;
  signal: AbortSignal;
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
  /** Runs once `persist` has committed (tidying that needs no fence, e.g. compacting a published staged graph); a failure is logged, not the job's. */
  afterCommit?: () => Promise<void>;
}

export interface JobHandler<P = any> extends JobKind<P> {
  run(ctx: JobRunContext<P>): Promise<JobOutcome | void>;
}

/** A user kind over one repository: `run` gets the recheck's answer with its repository. */
export interface RepoJobHandler<P> extends JobKind<P> {
  repoLevel: RepoLevel;
  system?: false;
  run(ctx: JobRunContext<P, RepoJobAuthorized>): Promise<JobOutcome | void>;
}

export function defineHandler<P>(h: JobHandler<P>): JobHandler<P> {
  return h;
}

/**
 * A repository kind's handler. The one place its context is narrowed: no recheck answer (a
 * handler called outside the runner) is `unauthenticated` and one without the repository is
 * `validation_failed`, before `run` reads any store.
 */
export function defineRepoHandler<P>(h: RepoJobHandler<P>): JobHandler<P> {
  return {
    ...h,
    async run(ctx) {
      const { auth } = ctx;
      if (!auth) throw new AppError("unauthenticated", { message: "No authorized identity was handed to this job." });
      if (!auth.repo) throw repoRequired();
      return h.run({ ...ctx, auth: { ...auth, repo: auth.repo } });
    },
  };
}

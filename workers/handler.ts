/**
 * What a job handler is: a job kind (pool, restartable, attempts, repository
 * level, params schema — see queues/jobs.ts) plus `run`.
 *
 * `run` executes under the job's own ExecutionContext (identity frozen,
 * AbortSignal tied to lease loss, cancel and shutdown). It must not write to
 * stores directly: it returns its writes as `persist(tx)`, which the runner
 * calls inside the one transaction that checks the lease token and re-runs
 * authorize(). A failed check means `persist` never runs.
 */
import type { RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import type { Identity } from "../core/execution/identity";
import type { Logger } from "../core/log";
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
}

export interface JobOutcome {
  result?: unknown;
  persist?: (tx: Tx) => Promise<void>;
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

/**
 * What both job sources (BullMQ, PostgreSQL-only) are given, and the one way
 * they claim: claimJobsChecked (the claim plus authorize()'s read for the
 * recheck before work) under the runner's worker id and the pool's lease.
 */
import type { Clock } from "../../core/clock";
import type { Logger } from "../../core/log";
import type { Db } from "../../db/schema";
import { retryTransient } from "../../core/retry";
import { claimJobsChecked, type CheckedClaim } from "../../queues/sql/claimJobs";
import type { FairShare } from "../../queues/sql/fairShare";
import type { JobRunner } from "../runner";

export interface SourceOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  pool: string;
  concurrency: number;
  leaseMs: number;
  runner: JobRunner;
  /** Fair share across organisations and sessions (queues/sql/fairShare.ts); absent: FIFO. */
  fair?: FairShare;
}

/**
 * Up to `limit` claimable rows of the pool, in the claim's order (FIFO or fair share). A
 * transient store error is retried (core/retry.ts). A claim that committed but whose answer
 * was lost is not seen again: those rows wait out their lease and are reclaimed.
 */
export function claimFor(o: SourceOptions, limit: number): Promise<CheckedClaim[]> {
  return retryTransient(
    () => claimJobsChecked(o.db, { pool: o.pool, workerId: o.runner.workerId, leaseMs: o.leaseMs, limit, now: o.clock.now(), ...(o.fair ? { fair: o.fair } : {}) }),
    { onRetry: (err) => o.logger.warn({ code: "claim_retry", pool: o.pool, err: (err as Error).message }, "claim hit a transient store error; retrying") },
  );
}

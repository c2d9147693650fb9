/**
 * The lease keeper: renews one running job's lease at about half its length
 * while the handler works. If a renewal finds the token gone, the lease was
 * lost and the job's signal aborts with "lease_lost"; if it finds a cancel
 * request, with "canceled". Sees only the job id, token and lease length.
 */
import type { Clock } from "../core/clock";
import type { Db } from "../db/schema";
import { retryTransient, STORE_RETRY } from "../core/retry";
import { renewLease } from "../queues/sql/renewLease";

export type AbortReason = "lease_lost" | "canceled" | "shutdown";

export function keepLease(
  db: Db,
  clock: Clock,
  job: { id: string; token: string; leaseMs: number },
  abort: (reason: AbortReason) => void,
  onError?: (err: unknown) => void,
): () => void {
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(() => {
    if (stopped || inFlight) return;
    inFlight = true;
    // A transient error is retried at once (jittered, well inside the lease), not at the next tick.
    const policy = { ...STORE_RETRY, maxMs: Math.max(20, Math.floor(job.leaseMs / 8)) };
    retryTransient(() => renewLease(db, { id: job.id, token: job.token, now: clock.now(), leaseMs: job.leaseMs }), { policy })
      .then((r) => {
        if (stopped) return;
        if (!r.ok) abort("lease_lost");
        else if (r.cancelRequested) abort("canceled");
      })
      .catch((err) => onError?.(err))
      .finally(() => {
        inFlight = false;
      });
  }, Math.max(50, Math.floor(job.leaseMs / 2)));
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

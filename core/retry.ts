/**
 * The one retry policy for transient store errors (JOB-3, JOB-8): a dropped or
 * refused connection, a server shutting down or starting up, a serialization
 * failure or a deadlock. Anything else (a constraint, a syntax error, bad
 * input) is not transient and is never retried here.
 *
 * Backoff is "full jitter" (a random delay in [0, min(cap, base·2^n)]), so
 * workers that lost the database together do not come back in lock step.
 */
import { isTransientError } from "./errors";

export { isTransientError };

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** The errors a retry can get past; absent: every transient error (isTransientError). */
  retryable?: (err: unknown) => boolean;
}

/** Claim, renew, finish, enqueue: a few quick tries that cover a connection drop or a failover of a few seconds. */
export const STORE_RETRY: RetryPolicy = { attempts: 6, baseMs: 100, maxMs: 3_000 };

/** A serialization failure or a deadlock: the transaction was rolled back, so running it again is safe. */
export function isTransactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
}

/**
 * A whole transaction (core/transaction.ts), run again at once after a conflict — and only then:
 * after a lost connection its commit may have happened, so that is left to the caller's own policy.
 */
export const TRANSACTION_RETRY: RetryPolicy = { attempts: 5, baseMs: 10, maxMs: 100, retryable: isTransactionConflict };

/** Full-jitter delay before retry number `n` (0-based). */
export function jitteredDelay(n: number, p: Pick<RetryPolicy, "baseMs" | "maxMs">, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(p.maxMs, p.baseMs * 2 ** n));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * Runs `fn` until it succeeds, fails with an error that is not transient, the
 * attempts run out or `signal` aborts; the last error is rethrown. `onRetry`
 * sees each transient failure before the wait (for a log line or a metric).
 */
export async function retryTransient<T>(
  fn: (attempt: number) => Promise<T>,
  o: { policy?: RetryPolicy; signal?: AbortSignal; onRetry?: (err: unknown, attempt: number, delayMs: number) => void } = {},
): Promise<T> {
  const p = o.policy ?? STORE_RETRY;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt + 1 >= p.attempts || !(p.retryable ?? isTransientError)(err) || o.signal?.aborted) throw err;
      const delay = jitteredDelay(attempt, p);
      o.onRetry?.(err, attempt, delay);
      await sleep(delay, o.signal);
      if (o.signal?.aborted) throw err;
    }
  }
}

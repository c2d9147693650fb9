/**
 * The one retry policy for transient store errors (JOB-3, JOB-8): a dropped or
 * refused connection, a server shutting down or starting up, a serialization
 * failure or a deadlock. Anything else (a constraint, a syntax error, bad
 * input) is not transient and is never retried here.
 *
 * Backoff is "full jitter" (a random delay in [0, min(cap, base·2^n)]), so
 * workers that lost the database together do not come back in lock step.
 */
import { AppError } from "./errors";

/** SQLSTATE classes and codes that a retry can get past. */
const TRANSIENT_SQLSTATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available
  "57P01", // admin_shutdown (server restart, pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up)
  "53300", // too_many_connections
]);
const TRANSIENT_SQLSTATE_CLASSES = ["08"]; // connection exception

/** Node socket errors of a connection that went away or could not be made. */
const TRANSIENT_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/** Messages the pg driver uses for a connection it lost (it sets no code on these). */
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /connection is closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /server closed the connection unexpectedly/i,
];

export function isTransientError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  if (err instanceof AppError) return err.code === "unavailable" || (err.cause !== undefined && isTransientError(err.cause, depth + 1));
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string") {
    if (TRANSIENT_SQLSTATES.has(e.code) || TRANSIENT_ERRNOS.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && TRANSIENT_SQLSTATE_CLASSES.includes(e.code.slice(0, 2))) return true;
  }
  if (typeof e.message === "string" && TRANSIENT_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isTransientError(x, depth + 1))) return true; // AggregateError (dual-stack connect)
  return e.cause !== undefined && isTransientError(e.cause, depth + 1);
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

/** Claim, renew, finish, enqueue: a few quick tries that cover a connection drop or a failover of a few seconds. */
export const STORE_RETRY: RetryPolicy = { attempts: 6, baseMs: 100, maxMs: 3_000 };

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
      if (attempt + 1 >= p.attempts || !isTransientError(err) || o.signal?.aborted) throw err;
      const delay = jitteredDelay(attempt, p);
      o.onRetry?.(err, attempt, delay);
      await sleep(delay, o.signal);
      if (o.signal?.aborted) throw err;
    }
  }
}

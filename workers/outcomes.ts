/**
 * How a run ends when it does not simply succeed, and the one way the runner writes to its
 * row: every write fenced by the lease token and retried through the one retry policy
 * (core/retry.ts) — refused (a recheck said no; nothing else written), canceled, handed back
 * (shutdown: restartable rows queued again at once, fix jobs abandoned), failed or queued for
 * a retry with backoff, or deferred while a provider pushes back. A row queued again is
 * dispatched again here; a write that finds the token gone answers "lease_lost".
 */
import type { Clock } from "../core/clock";
import { AppError, coerceError, type ErrorCode } from "../core/errors";
import { failureMessage } from "../core/jobs/failure";
import type { Logger } from "../core/log";
import { retryTransient, STORE_RETRY, type RetryPolicy } from "../core/retry";
import type { Db } from "../db/schema";
import type { Dispatcher } from "../queues/dispatch/dispatcher";
import type { JobRow } from "../queues/jobs";
import type { JobMetrics, JobOutcomeLabel } from "../queues/metrics";
import { deferJob } from "../queues/sql/deferJob";
import { endJob } from "../queues/sql/endJob";
import { failJob } from "../queues/sql/failJob";
import { releaseJob } from "../queues/sql/releaseJob";
import type { AbortReason } from "./lease-keeper";

/** Codes of authorize()/makeIdentity() that mean "this identity may not do this now": the job ends `refused`, never retried. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "invalid_identity",
  "invalid_session_header",
  "unauthenticated",
  "api_key_revoked",
  "login_session_ended",
  "user_suspended",
  "membership_suspended",
  "org_suspended",
  "not_a_member",
  "session_forbidden",
  "session_not_found",
  "session_expired",
  "session_revoked",
  "repo_not_found",
  "repo_permission_denied",
]);

export function isRefusal(err: unknown): err is AppError {
  return err instanceof AppError && REFUSALS.has(err.code);
}

/** What the outcome writes need of the runner's options. */
export interface OutcomeOptions {
  db: Db;
  clock: Clock;
  dispatcher: Dispatcher;
  logger: Logger;
  metrics?: JobMetrics;
  backoffBaseMs?: number;
}

export class JobOutcomes {
  constructor(private readonly o: OutcomeOptions) {}

  /** A fenced store write of the runner, through the one retry policy (core/retry.ts). */
  store<T>(fn: () => Promise<T>, o: { policy?: RetryPolicy; signal?: AbortSignal } = {}): Promise<T> {
    return retryTransient(fn, {
      policy: o.policy ?? STORE_RETRY,
      ...(o.signal ? { signal: o.signal } : {}),
      onRetry: (err, attempt) => this.o.logger.warn({ code: "store_retry", attempt, err: (err as Error).message }, "job write hit a transient store error; retrying"),
    });
  }

  async refuse(row: JobRow, token: string, stage: "before_work" | "before_persist", code: string, err?: unknown): Promise<JobOutcomeLabel> {
    this.o.metrics?.refused(row.pool, row.kind, stage, code);
    const errorMessage = failureMessage(code, err);
    const ok = await this.store(() => endJob(this.o.db, { id: row.id, token, now: this.o.clock.now(), status: "refused", errorCode: code, errorMessage }));
    return ok ? "refused" : "lease_lost";
  }

  async aborted(row: JobRow, token: string, reason: AbortReason): Promise<JobOutcomeLabel> {
    const now = this.o.clock.now();
    if (reason === "lease_lost") return "lease_lost";
    if (reason === "canceled") {
      return (await this.store(() => endJob(this.o.db, { id: row.id, token, now, status: "canceled", errorCode: "canceled" }))) ? "canceled" : "lease_lost";
    }
    const status = await this.store(() => releaseJob(this.o.db, { id: row.id, token, now }));
    if (status === "queued") await this.#dispatch({ id: row.id, pool: row.pool, attempts: row.attempts, run_at: now });
    return status === undefined ? "lease_lost" : status === "abandoned" ? "abandoned" : "released";
  }

  async fail(row: JobRow, token: string, err: unknown): Promise<JobOutcomeLabel> {
    const e = coerceError(err);
    if (e.code === "provider_rate_limited") return this.#defer(row, token, Number(e.details?.retry_after_ms ?? 1000));
    const code = e.code === "internal" ? "handler_failed" : e.code;
    this.o.logger.warn({ code, pool: row.pool, kind: row.kind, attempt: row.attempts, err: (err as Error)?.message }, "job handler failed");
    const r = await this.store(() =>
      failJob(this.o.db, {
        id: row.id,
        token,
        now: this.o.clock.now(),
        errorCode: code,
        errorMessage: failureMessage(code, e),
        retryable: e.status >= 500,
        ...(this.o.backoffBaseMs !== undefined ? { backoffBaseMs: this.o.backoffBaseMs } : {}),
      }),
    );
    if (!r) return "lease_lost";
    if (r.status === "queued") {
      await this.#dispatch({ id: row.id, pool: row.pool, attempts: row.attempts, run_at: r.runAt });
      return "retried";
    }
    return "failed";
  }

  /** The provider pushed back (core/provider-limits.ts): queued again after its delay, the attempt given back. */
  async #defer(row: JobRow, token: string, delayMs: number): Promise<JobOutcomeLabel> {
    const now = this.o.clock.now();
    this.o.logger.info({ code: "provider_rate_limited", pool: row.pool, kind: row.kind, delay_ms: delayMs }, "provider rate limited; job deferred");
    const r = await this.store(() => deferJob(this.o.db, { id: row.id, token, now, runAt: new Date(now.getTime() + delayMs), errorCode: "provider_rate_limited" }));
    if (!r) return "lease_lost";
    await this.#dispatch({ id: row.id, pool: row.pool, attempts: r.attempts, run_at: r.runAt });
    return "deferred";
  }

  async #dispatch(item: { id: string; pool: string; attempts: number; run_at: Date }): Promise<void> {
    try {
      await this.o.dispatcher.dispatch([item], this.o.clock.now());
    } catch (err) {
      this.o.logger.warn({ code: "dispatch_failed", pool: item.pool, err: (err as Error).message }, "dispatch failed; reconciler will retry");
    }
  }
}

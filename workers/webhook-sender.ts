/**
 * The webhook sender: every worker process runs one, like the
 * reconciler. Each pass claims a bounded batch of due deliveries
 * (queues/webhooks.ts, `skip locked` with a lease: processes share the work,
 * never a row), POSTs each signed body (core/webhook-signature.ts) with a
 * timeout and no redirects, and writes the outcome fenced by the lease: 2xx is
 * delivered; anything else is retried after a jittered backoff of
 * `WEBHOOK_RETRY` (core/retry.ts's full jitter, at least its base) until its
 * attempts run out, then failed. A delivery whose webhook was removed fails
 * (`webhook_removed`). Logs carry the delivery id and a closed error code —
 * never the URL (it may hold a token), the secret or the receiver's answer.
 */
import type { Clock } from "../core/clock";
import { WEBHOOK_BATCH, WEBHOOK_TIMEOUT_MS } from "../core/limits";
import type { Logger } from "../core/log";
import { jitteredDelay, type RetryPolicy } from "../core/retry";
import { SIGNATURE_HEADER, signatureHeader } from "../core/webhook-signature";
import type { Db } from "../db/schema";
import { claimDeliveries, finishDelivery, WEBHOOK_RETRY, type ClaimedDelivery, type DeliveryOutcome } from "../queues/webhooks";

export const DELIVERY_HEADER = "codesynapse-delivery";
export const EVENT_HEADER = "codesynapse-event";

export interface WebhookSenderOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  policy?: RetryPolicy;
  pollMs?: number;
  timeoutMs?: number;
  batch?: number;
  random?: () => number;
}

/** The body of a delivery: the same bytes on every attempt. No session id, parameters or result. */
export function deliveryBody(d: ClaimedDelivery): string {
  return JSON.stringify({
    id: d.id,
    type: d.event,
    created_at: d.created_at.toISOString(),
    data: {
      job: {
        id: d.job_id,
        kind: d.job.kind,
        status: d.job.status,
        repo_id: d.job.repo_id,
        error_code: d.job.error_code,
        attempts: d.job.attempts,
        user_id: d.job.user_id,
        created_at: d.job.created_at.toISOString(),
        finished_at: d.job.finished_at?.toISOString() ?? null,
      },
    },
  });
}

export class WebhookSender {
  readonly #o: Required<Omit<WebhookSenderOptions, "random">> & { random: () => number };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;

  constructor(o: WebhookSenderOptions) {
    this.#o = { policy: WEBHOOK_RETRY, pollMs: 1000, timeoutMs: WEBHOOK_TIMEOUT_MS, batch: WEBHOOK_BATCH, random: Math.random, ...o };
  }

  start(): void {
    const tick = () => {
      if (this.#stopped) return;
      this.#running = this.runOnce()
        .catch((err) => this.#o.logger.warn({ code: "webhook_pass_failed", err: (err as Error).name }, "webhook pass failed; retried next pass"))
        .finally(() => {
          this.#running = undefined;
          if (!this.#stopped) (this.#timer = setTimeout(tick, this.#o.pollMs)).unref();
        });
    };
    (this.#timer = setTimeout(tick, 0)).unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One pass: claims a batch and sends it. Returns how many deliveries were attempted. */
  async runOnce(): Promise<number> {
    const { db, clock } = this.#o;
    const { token, rows } = await claimDeliveries(db, { now: clock.now(), leaseMs: this.#o.timeoutMs + 30_000, limit: this.#o.batch });
    await Promise.all(rows.map(async (d) => {
      const outcome = await this.#attempt(d);
      const kept = await finishDelivery(db, d.id, token, clock.now(), outcome);
      const log = { code: outcome.status === "delivered" ? "webhook_delivered" : "webhook_attempt_failed", delivery: d.id, attempts: d.attempts, status: outcome.status };
      if (!kept) this.#o.logger.warn({ ...log, code: "webhook_lease_lost" }, "webhook delivery lease lost");
      else if (outcome.status === "delivered") this.#o.logger.info(log, "webhook delivered");
      else this.#o.logger.warn({ ...log, error: outcome.error }, outcome.status === "failed" ? "webhook delivery given up" : "webhook delivery will be retried");
    }));
    return rows.length;
  }

  async #attempt(d: ClaimedDelivery): Promise<DeliveryOutcome> {
    if (!d.url || !d.secret) return { status: "failed", httpStatus: null, error: "webhook_removed" };
    const body = deliveryBody(d);
    const t = Math.floor(this.#o.clock.now().getTime() / 1000);
    let httpStatus: number | null = null;
    let error: string;
    try {
      const res = await fetch(d.url, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(this.#o.timeoutMs),
        headers: {
          "content-type": "application/json",
          "user-agent": "CodeSynapse-Webhooks/1",
          [SIGNATURE_HEADER]: signatureHeader(d.secret, t, body),
          [DELIVERY_HEADER]: d.id,
          [EVENT_HEADER]: d.event,
        },
        body,
      });
      await res.body?.cancel().catch(() => undefined); // the answer's body is not read
      httpStatus = res.status;
      if (res.status >= 200 && res.status < 300) return { status: "delivered", httpStatus };
      error = `http_${res.status}`;
    } catch (err) {
      const name = (err as Error).name;
      error = name === "TimeoutError" || name === "AbortError" ? "timeout" : "connect_failed";
    }
    const p = this.#o.policy;
    if (d.attempts >= p.attempts) return { status: "failed", httpStatus, error };
    const delay = Math.max(p.baseMs, jitteredDelay(d.attempts, p, this.#o.random));
    return { status: "pending", nextAttemptAt: new Date(this.#o.clock.now().getTime() + delay), httpStatus, error };
  }
}

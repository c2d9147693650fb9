/**
 * Provider rate limits (docs/jobs.md "Provider limits"): our own limits on the calls to a
 * configured model endpoint (LLM, embedder, extractor), so a burst of jobs waits on our side
 * instead of turning into the provider's 429s and retries that spend attempts.
 *
 * Per endpoint (the provider kind and its base URL; the key holds a hash of the URL, never it):
 * - requests per second: a rate-limiter-flexible window (`LimiterStore`: Redis-backed and shared by
 *   every process when REDIS_URL is set, in this process otherwise);
 * - requests in flight: a semaphore (`SemaphoreStore`: a Redis sorted set of holders with
 *   deadlines, shared likewise, or in this process). A holder that died is dropped at its deadline
 *   (the call's timeout), so a crashed worker cannot keep a slot.
 * A call waits for both (honouring its AbortSignal) while the wait is short; a wait longer than
 * `maxWaitMs`, or the provider's own 429 (or 503 with Retry-After), throws
 * `provider_rate_limited` with `retry_after_ms`: the runner puts the job back in the queue for
 * that long without spending an attempt (queues/sql/deferJob.ts), freeing the worker slot.
 *
 * Invariant: a permit taken is released exactly once (finally), whatever the call did.
 */
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Config } from "./config";
import { sha256Hex } from "./crypto";
import { AppError } from "./errors";
import { memoryLimiterStore, type LimiterStore } from "./rate-limit";

export type ProviderKind = "llm" | "embedder" | "extractor";

/** Concurrent holders per key, shared or not. */
export interface SemaphoreStore {
  /** Takes a place among `max` for `token` until `ttlMs` from now; false when all are held. */
  tryAcquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean>;
  release(key: string, token: string): Promise<void>;
  close(): Promise<void>;
}

/** Holders in this process. */
export class MemorySemaphores implements SemaphoreStore {
  readonly #held = new Map<string, Map<string, number>>();
  async tryAcquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const held = this.#held.get(key) ?? new Map<string, number>();
    for (const [t, until] of held) if (until <= now) held.delete(t);
    this.#held.set(key, held);
    if (held.size >= max) return false;
    held.set(token, now + ttlMs);
    return true;
  }
  async release(key: string, token: string): Promise<void> {
    this.#held.get(key)?.delete(token);
  }
  async close(): Promise<void> {}
}

export interface ProviderLimit {
  rps?: number | undefined;
  concurrent?: number | undefined;
}

/** The provider asked us to slow down (or our own wait would be long): the job waits `retry_after_ms`, no attempt spent. */
export function providerRateLimited(provider: ProviderKind, retryAfterMs: number): AppError {
  const ms = Math.max(1, Math.min(Math.round(retryAfterMs), 3_600_000));
  return new AppError("provider_rate_limited", { details: { provider, retry_after_ms: ms } });
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = header.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Without a Retry-After, a provider's 429 delays the job this long. */
export const DEFAULT_PROVIDER_RETRY_MS = 10_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AppError("canceled"));
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(t);
      reject(new AppError("canceled"));
    }
    signal?.addEventListener("abort", abort, { once: true });
  });

export class ProviderGate {
  readonly #key: string;
  readonly #rate: RateLimiterAbstract | undefined;
  #seq = 0;

  constructor(
    readonly provider: ProviderKind,
    endpoint: string,
    readonly limit: ProviderLimit,
    private readonly stores: { limiters: LimiterStore; semaphores: SemaphoreStore },
    /** Longest wait for our own limits before the job is handed back instead; the holder's deadline. */
    private readonly o: { maxWaitMs?: number; holdMs?: number } = {},
  ) {
    this.#key = `${provider}:${sha256Hex(endpoint).slice(0, 24)}`;
    const rps = limit.rps;
    // Fractional rates (0.5/s) become one request per ceil(1/rps) seconds.
    this.#rate = rps === undefined ? undefined : stores.limiters.make(
      rps >= 1 ? { keyPrefix: "cs:pl:rate", points: Math.floor(rps), duration: 1 } : { keyPrefix: "cs:pl:rate", points: 1, duration: Math.ceil(1 / rps) },
    );
  }

  /**
   * Runs one request under the limits. `call` makes the request; a 429 (or a 503 with Retry-After)
   * answer becomes `provider_rate_limited`. Other answers are returned for the caller to read.
   */
  async run(signal: AbortSignal | undefined, call: () => Promise<Response>): Promise<Response> {
    const deadline = Date.now() + (this.o.maxWaitMs ?? 5_000);
    await this.#takeRate(deadline, signal);
    const token = await this.#takeSlot(deadline, signal);
    try {
      const res = await call();
      const after = retryAfterMs(res.headers.get("retry-after"));
      if (res.status === 429 || (res.status === 503 && after !== undefined)) {
        await res.body?.cancel().catch(() => undefined);
        throw providerRateLimited(this.provider, after ?? DEFAULT_PROVIDER_RETRY_MS);
      }
      return res;
    } finally {
      if (token) await this.stores.semaphores.release(this.#key, token).catch(() => undefined);
    }
  }

  async #takeRate(deadline: number, signal?: AbortSignal): Promise<void> {
    if (!this.#rate) return;
    for (;;) {
      try {
        await this.#rate.consume(this.#key);
        return;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        if (Date.now() + err.msBeforeNext > deadline) throw providerRateLimited(this.provider, err.msBeforeNext);
        await sleep(err.msBeforeNext, signal);
      }
    }
  }

  async #takeSlot(deadline: number, signal?: AbortSignal): Promise<string | undefined> {
    const max = this.limit.concurrent;
    if (max === undefined) return undefined;
    const token = `${process.pid}:${Date.now()}:${++this.#seq}:${Math.random().toString(36).slice(2)}`;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      if (await this.stores.semaphores.tryAcquire(this.#key, token, max, this.o.holdMs ?? 180_000)) return token;
      if (Date.now() + wait > deadline) throw providerRateLimited(this.provider, 1_000);
      await sleep(wait + Math.floor(Math.random() * wait), signal);
    }
  }
}

export interface ProviderGates {
  llm?: ProviderGate;
  embedder?: ProviderGate;
  extractor?: ProviderGate;
  close(): Promise<void>;
}

type LimitConfig = Pick<Config, "LLM_BASE_URL" | "EMBEDDING_BASE_URL" | "LLM_MAX_RPS" | "LLM_MAX_CONCURRENT" | "EMBEDDING_MAX_RPS" | "EMBEDDING_MAX_CONCURRENT" | "EXTRACTOR_MAX_RPS" | "EXTRACTOR_MAX_CONCURRENT">;

/** Whether any provider limit is configured (no Redis client is opened for none). */
export function hasProviderLimits(config: LimitConfig): boolean {
  return [config.LLM_MAX_RPS, config.LLM_MAX_CONCURRENT, config.EMBEDDING_MAX_RPS, config.EMBEDDING_MAX_CONCURRENT, config.EXTRACTOR_MAX_RPS, config.EXTRACTOR_MAX_CONCURRENT].some((v) => v !== undefined);
}

/** The gates the configuration asks for (none without a limit set); stores shared through Redis when given. */
export function createProviderGates(
  config: LimitConfig,
  stores: { limiters: LimiterStore; semaphores: SemaphoreStore } = { limiters: memoryLimiterStore, semaphores: new MemorySemaphores() },
): ProviderGates {
  const gate = (kind: ProviderKind, url: string | undefined, rps: number | undefined, concurrent: number | undefined) =>
    url && (rps !== undefined || concurrent !== undefined) ? new ProviderGate(kind, url, { rps, concurrent }, stores) : undefined;
  const llm = gate("llm", config.LLM_BASE_URL, config.LLM_MAX_RPS, config.LLM_MAX_CONCURRENT);
  const embedder = gate("embedder", config.EMBEDDING_BASE_URL, config.EMBEDDING_MAX_RPS, config.EMBEDDING_MAX_CONCURRENT);
  const extractor = gate("extractor", config.LLM_BASE_URL, config.EXTRACTOR_MAX_RPS, config.EXTRACTOR_MAX_CONCURRENT);
  return {
    ...(llm ? { llm } : {}),
    ...(embedder ? { embedder } : {}),
    ...(extractor ? { extractor } : {}),
    async close() {
      await Promise.all([stores.limiters.close(), stores.semaphores.close()]);
    },
  };
}

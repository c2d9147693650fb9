/**
 * Rate limits (docs/security.md), with rate-limiter-flexible:
 *
 * - sign-in, per account+client and per client, with a progressive block: the first
 *   RATE_LIMIT_LOGIN_FAILURES consecutive failures of an account from one client are free, then
 *   each further failure blocks that pair for RATE_LIMIT_LOGIN_BLOCK_S, doubled per block, capped at
 *   RATE_LIMIT_LOGIN_MAX_BLOCK_S; a success resets the pair. Keyed per account+client, never per
 *   account alone, so an attacker can slow down only their own client, never lock a victim out. The
 *   client alone (any account) gets RATE_LIMIT_LOGIN_IP_FAILURES failures per window, then the same
 *   growing block (a success does not reset it: one's own account must not launder a spray);
 * - registrations per organisation, uploads per session, MCP initializes per API key: fixed windows
 *   of one minute.
 *
 * A refusal is 429 `rate_limited` with `details.retry_after_s` (the error middleware sends it as
 * `Retry-After`); nothing of the request is quoted, and keys hold a SHA-256 of the email, never it.
 *
 * Store (a `LimiterStore`): with REDIS_URL, RateLimiterRedis (db/redis-rate-limits.ts; the composition
 * root picks it), so every API node shares the counts, with an in-memory insurance limiter that takes
 * over while Redis is unreachable (limits then hold per node); without it, RateLimiterMemory — the
 * embedded default is one node. Nothing here loads a Redis client. (RateLimiterPostgres would put a write
 * on the primary store in front of every limited request; Redis is the store the platform already
 * uses for fast shared counters.)
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Config } from "./config";
import { sha256Hex } from "./crypto";
import { AppError } from "./errors";

const STRIKE_MEMORY_S = 24 * 3600;

export function rateLimited(limit: string, msBeforeNext: number): AppError {
  const retry = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError("rate_limited", { details: { limit, retry_after_s: retry } });
}

type Factory = (o: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

/** Where the counters live: one limiter per name from `make`; `close` releases the store's client. */
export interface LimiterStore {
  make: Factory;
  close(): Promise<void>;
}

/** Counters in this process. */
export const memoryLimiterStore: LimiterStore = { make: (o) => new RateLimiterMemory(o), close: async () => undefined };

/** A fixed window: `points` per `duration` seconds per key. */
export class WindowLimiter {
  readonly #limiter: RateLimiterAbstract;

  constructor(make: Factory, readonly name: string, points: number, durationS: number) {
    this.#limiter = make({ keyPrefix: `cs:rl:${name}`, points, duration: durationS });
  }

  /** Counts one request for `key`; throws `rate_limited` past the limit. */
  async consume(key: string): Promise<void> {
    try {
      await this.#limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw rateLimited(this.name, err.msBeforeNext);
      throw err;
    }
  }
}

/** Failure counting with a growing block (sign-in). */
export class ProgressiveLimiter {
  readonly #failures: RateLimiterAbstract;
  readonly #strikes: RateLimiterAbstract;

  constructor(
    make: Factory,
    readonly name: string,
    private readonly o: { freeFailures: number; windowS: number; blockS: number; maxBlockS: number },
  ) {
    this.#failures = make({ keyPrefix: `cs:rl:${name}`, points: o.freeFailures, duration: o.windowS });
    // How many blocks the key earned lately: the exponent of the next block.
    this.#strikes = make({ keyPrefix: `cs:rl:${name}:strikes`, points: 1_000_000, duration: STRIKE_MEMORY_S });
  }

  /** Throws `rate_limited` while `key` is blocked. */
  async check(key: string): Promise<void> {
    const r = await this.#failures.get(key);
    if (r !== null && r.consumedPoints > this.o.freeFailures && r.msBeforeNext > 0) throw rateLimited(this.name, r.msBeforeNext);
  }

  /** One failure: the free ones count down; the last of them, and after a block every failure, blocks twice as long as the last block. */
  async failed(key: string): Promise<void> {
    const struck = await this.#strikes.get(key);
    if (struck === null || struck.consumedPoints === 0) {
      try {
        // The last free failure blocks already: `freeFailures` failures in a row, then a wait.
        if ((await this.#failures.consume(key)).remainingPoints > 0) return;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
      }
    }
    const s = await this.#strikes.penalty(key, 1);
    const blockS = Math.min(this.o.maxBlockS, this.o.blockS * 2 ** Math.min(30, s.consumedPoints - 1));
    await this.#failures.block(key, blockS);
  }

  /** A success: the key starts over. */
  async reset(key: string): Promise<void> {
    await Promise.all([this.#failures.delete(key), this.#strikes.delete(key)]);
  }
}

/** Sign-in limits: per account+client and per client. */
export class LoginLimiter {
  constructor(
    readonly pair: ProgressiveLimiter,
    readonly client: ProgressiveLimiter,
  ) {}

  static keys(email: string, ip: string): { pair: string; client: string } {
    return { pair: `${sha256Hex(email.trim().toLowerCase())}:${ip}`, client: ip };
  }

  async check(email: string, ip: string): Promise<void> {
    const k = LoginLimiter.keys(email, ip);
    await this.pair.check(k.pair);
    await this.client.check(k.client);
  }

  async failed(email: string, ip: string): Promise<void> {
    const k = LoginLimiter.keys(email, ip);
    await Promise.all([this.pair.failed(k.pair), this.client.failed(k.client)]);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.pair.reset(LoginLimiter.keys(email, ip).pair);
  }
}

export interface RateLimits {
  login: LoginLimiter;
  registrations: WindowLimiter;
  uploads: WindowLimiter;
  mcpInitialize: WindowLimiter;
  close(): Promise<void>;
}

/** The limits of one API node: in this process by default, shared when `store` is (db/redis-rate-limits.ts). */
export function createRateLimits(config: Config, store: LimiterStore = memoryLimiterStore): RateLimits {
  const make = store.make;
  const login = new LoginLimiter(
    new ProgressiveLimiter(make, "login_per_account_client", {
      freeFailures: config.RATE_LIMIT_LOGIN_FAILURES, windowS: config.RATE_LIMIT_LOGIN_WINDOW_S,
      blockS: config.RATE_LIMIT_LOGIN_BLOCK_S, maxBlockS: config.RATE_LIMIT_LOGIN_MAX_BLOCK_S,
    }),
    new ProgressiveLimiter(make, "login_per_client", {
      freeFailures: config.RATE_LIMIT_LOGIN_IP_FAILURES, windowS: config.RATE_LIMIT_LOGIN_WINDOW_S,
      blockS: config.RATE_LIMIT_LOGIN_BLOCK_S, maxBlockS: config.RATE_LIMIT_LOGIN_MAX_BLOCK_S,
    }),
  );
  return {
    login,
    registrations: new WindowLimiter(make, "registrations_per_org", config.RATE_LIMIT_REGISTER_PER_MIN, 60),
    uploads: new WindowLimiter(make, "uploads_per_session", config.RATE_LIMIT_UPLOADS_PER_MIN, 60),
    mcpInitialize: new WindowLimiter(make, "mcp_initialize_per_key", config.RATE_LIMIT_MCP_INITIALIZE_PER_MIN, 60),
    close: () => store.close(),
  };
}

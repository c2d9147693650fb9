/**
 * The provider limits' shared stores (core/provider-limits.ts), chosen by the composition root
 * when REDIS_URL is set: requests per second through the rate limits' Redis store
 * (db/redis-rate-limits.ts), and requests in flight through a semaphore in Redis — one sorted
 * set per endpoint key, members the holders' tokens scored by their deadlines. Taking a place
 * is one Lua script (drop holders past their deadline, count, add), so every worker process
 * sees one count; a process that died holding a place loses it at the deadline.
 * While Redis is unreachable a call is not refused: the in-process semaphore answers (limits then
 * hold per process), as the rate limiter's insurance limiter does.
 */
import { Redis } from "ioredis";
import type { Logger } from "../core/log";
import { MemorySemaphores, type SemaphoreStore } from "../core/provider-limits";
import type { LimiterStore } from "../core/rate-limit";
import { redisLimiterStore } from "./redis-rate-limits";

const ACQUIRE = `
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[4])
  redis.call('pexpire', KEYS[1], ARGV[5])
  return 1
end
return 0`;

export class RedisSemaphores implements SemaphoreStore {
  readonly #client: Redis;
  readonly #fallback = new MemorySemaphores();
  readonly #prefix: string;

  constructor(url: string, o: { prefix?: string; logger?: Logger } = {}) {
    this.#prefix = o.prefix ?? "cs:pl:sem";
    this.#client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    let warned = false;
    this.#client.on("error", (err: Error) => {
      if (!warned) o.logger?.warn({ cause: { name: err.name, message: err.message } }, "provider limits: Redis unreachable, limiting per process");
      warned = true;
    });
    this.#client.on("ready", () => (warned = false));
  }

  async tryAcquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    try {
      const r = await this.#client.eval(ACQUIRE, 1, `${this.#prefix}:${key}`, String(now), String(now + ttlMs), String(max), token, String(ttlMs));
      return r === 1;
    } catch {
      return this.#fallback.tryAcquire(key, token, max, ttlMs);
    }
  }

  async release(key: string, token: string): Promise<void> {
    await this.#fallback.release(key, token);
    await this.#client.zrem(`${this.#prefix}:${key}`, token).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.#client.quit().catch(() => this.#client.disconnect());
  }
}

/** Both stores of the provider limits on one Redis. */
export function redisProviderLimitStores(url: string, logger?: Logger): { limiters: LimiterStore; semaphores: SemaphoreStore } {
  return { limiters: redisLimiterStore(url, logger), semaphores: new RedisSemaphores(url, logger ? { logger } : {}) };
}

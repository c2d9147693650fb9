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
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import type { Logger } from "../core/log";
import { MemorySemaphores, type SemaphoreStore } from "../core/provider-limits";
import type { LimiterStore } from "../core/rate-limit";

const ACQUIRE = `
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('zadd', KEYS[1], ARGV[2], ARGV[4])
  redis.call('pexpire', KEYS[1], ARGV[5])
  return 1
end
return 0`;

/** A client for the provider limits: commands wait for the connection (one reconnect), then fail over to this process's counts. */
function limitsClient(url: string, logger?: Logger): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  let warned = false;
  client.on("error", (err: Error) => {
    if (!warned) logger?.warn({ cause: { name: err.name, message: err.message } }, "provider limits: Redis unreachable, limiting per process");
    warned = true;
  });
  client.on("ready", () => (warned = false));
  return client;
}

export class RedisSemaphores implements SemaphoreStore {
  readonly #fallback = new MemorySemaphores();
  readonly #prefix: string;

  constructor(
    readonly client: Redis,
    o: { prefix?: string } = {},
  ) {
    this.#prefix = o.prefix ?? "cs:pl:sem";
  }

  async tryAcquire(key: string, token: string, max: number, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    try {
      const r = await this.client.eval(ACQUIRE, 1, `${this.#prefix}:${key}`, String(now), String(now + ttlMs), String(max), token, String(ttlMs));
      return r === 1;
    } catch {
      return this.#fallback.tryAcquire(key, token, max, ttlMs);
    }
  }

  async release(key: string, token: string): Promise<void> {
    await this.#fallback.release(key, token);
    await this.client.zrem(`${this.#prefix}:${key}`, token).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.client.status !== "end") await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** Both stores of the provider limits on one Redis client (closed once, by the semaphores' close). */
export function redisProviderLimitStores(url: string, logger?: Logger): { limiters: LimiterStore; semaphores: SemaphoreStore } {
  const client = limitsClient(url, logger);
  return {
    limiters: {
      make: (o) => new RateLimiterRedis({ ...o, storeClient: client, insuranceLimiter: new RateLimiterMemory(o) }),
      close: async () => undefined,
    },
    semaphores: new RedisSemaphores(client),
  };
}

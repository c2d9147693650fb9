/**
 * The rate limits' shared store (core/rate-limit.ts, docs/security.md): counters in Redis, so
 * every API node shares them, with an in-memory insurance limiter per counter that answers
 * while Redis is unreachable (limits then hold per node). Chosen by the composition root when
 * REDIS_URL is set.
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import type { Logger } from "../core/log";
import type { LimiterStore } from "../core/rate-limit";

export function redisLimiterStore(url: string, logger?: Logger): LimiterStore {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  let warned = false;
  client.on("error", (err: Error) => {
    // The insurance limiter carries on; say so once per outage, not per retry.
    if (!warned) logger?.warn({ cause: { name: err.name, message: err.message } }, "rate limits: Redis unreachable, limiting per node");
    warned = true;
  });
  client.on("ready", () => (warned = false));
  return {
    make: (o) => new RateLimiterRedis({ ...o, storeClient: client, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(o) }),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

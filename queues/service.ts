/**
 * Builds the job queue the configuration names (JOB-2): BullMQ when REDIS_CLUSTER_NODES
 * or REDIS_URL is set, otherwise dispatch straight from the PostgreSQL/PGlite rows.
 */
import type { Clock } from "../core/clock";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";
import type { BullMqDispatcher, BullOptions } from "./dispatch/bullmq";
import type { Dispatcher, DispatchItem, RedispatchResult } from "./dispatch/dispatcher";
import { PostgresDispatcher } from "./dispatch/postgres";
import type { JobRegistry } from "./registry";
import type { JobQueue } from "./submit";

export interface QueueSetup {
  queue: JobQueue;
  bull: BullOptions | undefined;
}

export function createJobQueue(o: {
  db: Db;
  identity: JobQueue["identity"];
  clock: Clock;
  logger: Logger;
  registry: JobRegistry;
  redisUrl?: string | undefined;
  /** Redis Cluster seed nodes; when given, BullMQ runs on the cluster (REDIS_URL is then not used for dispatch). */
  redisCluster?: readonly string[] | undefined;
  bullPrefix?: string;
}): QueueSetup {
  const target = o.redisCluster && o.redisCluster.length > 0 ? { cluster: o.redisCluster } : o.redisUrl ? { url: o.redisUrl } : undefined;
  const bull = target ? { ...target, ...(o.bullPrefix ? { prefix: o.bullPrefix } : {}) } : undefined;
  const dispatcher: Dispatcher = bull ? new LazyBullMqDispatcher(bull) : new PostgresDispatcher(o.db);
  return { queue: { db: o.db, identity: o.identity, clock: o.clock, registry: o.registry, dispatcher, logger: o.logger }, bull };
}

/**
 * BullMQ dispatch whose module (BullMQ, ioredis: ~30 MB of an idle process) is imported on first
 * use, so a process that never dispatches through Redis never loads it. Same calls, same results
 * and errors as `BullMqDispatcher`, which `real()` gives (the operators' BullMQ board uses it).
 */
export class LazyBullMqDispatcher implements Dispatcher {
  readonly kind = "bullmq" as const;
  #real: Promise<BullMqDispatcher> | undefined;

  constructor(private readonly bull: BullOptions) {}

  real(): Promise<BullMqDispatcher> {
    return (this.#real ??= import("./dispatch/bullmq").then((m) => new m.BullMqDispatcher(this.bull)));
  }

  async dispatch(items: readonly DispatchItem[], now: Date): Promise<void> {
    return (await this.real()).dispatch(items, now);
  }

  async redispatch(items: readonly DispatchItem[], now: Date): Promise<RedispatchResult[]> {
    return (await this.real()).redispatch(items, now);
  }

  async ping(): Promise<void> {
    return (await this.real()).ping();
  }

  async close(): Promise<void> {
    if (this.#real) await (await this.#real).close();
  }
}

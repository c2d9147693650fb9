/**
 * Builds the job queue the configuration names (JOB-2): BullMQ when REDIS_CLUSTER_NODES
 * or REDIS_URL is set, otherwise dispatch straight from the PostgreSQL/PGlite rows.
 */
import type { Clock } from "../core/clock";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";
import { BullMqDispatcher, type BullOptions } from "./dispatch/bullmq";
import type { Dispatcher } from "./dispatch/dispatcher";
import { PostgresDispatcher } from "./dispatch/postgres";
import type { JobRegistry } from "./registry";
import type { JobQueue } from "./submit";

export interface QueueSetup {
  queue: JobQueue;
  bull: BullOptions | undefined;
}

export function createJobQueue(o: {
  db: Db;
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
  const dispatcher: Dispatcher = bull ? new BullMqDispatcher(bull) : new PostgresDispatcher(o.db);
  return { queue: { db: o.db, clock: o.clock, registry: o.registry, dispatcher, logger: o.logger }, bull };
}

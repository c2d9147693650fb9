/**
 * The Redis connection BullMQ gets (JOB-2): options for a single Redis (BullMQ opens and closes
 * its own clients), or an ioredis `Cluster` for a Redis Cluster. BullMQ never closes a client it
 * was handed, so the owner of a `BullConnection` closes it after the Queue or Worker.
 *
 * Cluster settings: commands wait across a failover instead of failing (`maxRetriesPerRequest:
 * null`, as BullMQ requires for its blocking client; the offline queue on), and ioredis refreshes
 * the slot map on MOVED / CLUSTERDOWN and retries, so a promoted replica takes over the slots.
 */
import { Cluster } from "ioredis";

export interface RedisTarget {
  url?: string | undefined;
  cluster?: readonly string[] | undefined;
}

export interface BullConnection {
  readonly connection: Cluster | { url: string; maxRetriesPerRequest: null; enableOfflineQueue: boolean };
  close(): Promise<void>;
}

export function clusterNodesOf(nodes: readonly string[]): Array<{ host: string; port: number }> {
  return nodes.map((hp) => {
    const i = hp.lastIndexOf(":");
    return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
  });
}

export function openCluster(nodes: readonly string[]): Cluster {
  return new Cluster(clusterNodesOf(nodes), {
    enableOfflineQueue: true,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    redisOptions: { maxRetriesPerRequest: null },
  });
}

export function bullConnection(o: RedisTarget): BullConnection {
  if (o.cluster && o.cluster.length > 0) {
    const cluster = openCluster(o.cluster);
    return {
      connection: cluster,
      close: async () => {
        await cluster.quit().catch(() => cluster.disconnect());
      },
    };
  }
  if (o.url === undefined) throw new Error("BullMQ needs REDIS_URL or REDIS_CLUSTER_NODES");
  return { connection: { url: o.url, maxRetriesPerRequest: null, enableOfflineQueue: true }, close: async () => undefined };
}

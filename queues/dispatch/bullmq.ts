/**
 * BullMQ dispatch (JOB-2): one queue per pool, and the payload is the job
 * row's id and nothing else. The BullMQ job id is `<row id>-<attempts>`, so a
 * re-dispatch of the same queued episode is deduplicated while its message
 * waits, and a later episode (retry, reclaim) gets a fresh message.
 */
import { Queue } from "bullmq";
import type { DispatchItem, Dispatcher } from "./dispatcher";

export interface BullOptions {
  url: string;
  /** Key prefix; tests use a fresh one each. */
  prefix?: string;
}

export const DEFAULT_BULL_PREFIX = "codesynapse";

export function queueName(pool: string): string {
  return `jobs-${pool}`;
}

export function bullJobId(item: { id: string; attempts: number }): string {
  return `${item.id}-${item.attempts}`;
}

export function connectionOf(o: BullOptions) {
  return { url: o.url, maxRetriesPerRequest: null as null, enableOfflineQueue: true };
}

export class BullMqDispatcher implements Dispatcher {
  readonly kind = "bullmq" as const;
  readonly #queues = new Map<string, Queue>();
  constructor(readonly options: BullOptions) {}

  queue(pool: string): Queue {
    let q = this.#queues.get(pool);
    if (!q) {
      q = new Queue(queueName(pool), {
        connection: connectionOf(this.options),
        prefix: this.options.prefix ?? DEFAULT_BULL_PREFIX,
        defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000 },
      });
      this.#queues.set(pool, q);
    }
    return q;
  }

  queues(pools: readonly string[]): Queue[] {
    return pools.map((p) => this.queue(p));
  }

  async dispatch(items: readonly DispatchItem[], now: Date): Promise<void> {
    const byPool = new Map<string, DispatchItem[]>();
    for (const i of items) byPool.set(i.pool, [...(byPool.get(i.pool) ?? []), i]);
    for (const [pool, list] of byPool) {
      await this.queue(pool).addBulk(
        list.map((i) => ({
          name: "job",
          data: { id: i.id },
          opts: { jobId: bullJobId(i), delay: Math.max(0, i.run_at.getTime() - now.getTime()) },
        })),
      );
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((q) => q.close()));
    this.#queues.clear();
  }
}

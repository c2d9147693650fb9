/**
 * BullMQ dispatch (JOB-2): one queue per pool, and a message carries job row
 * ids and nothing else — the ids of rows that became claimable together, up
 * to MESSAGE_IDS of them: the rows one submission flush inserted, or one row
 * a retry or the reconciler dispatches. One message per batch, not per row:
 * the worker claims a message's ids in one statement, and BullMQ's own work
 * (add, move to active, finish) is paid per batch (docs/jobs.md, "BullMQ
 * dispatch"). The BullMQ job id of a message is its first row's
 * `<row id>-<attempts>`, so a second dispatch of the same queued episode is
 * deduplicated while its message waits, and a later episode (retry, reclaim)
 * gets a fresh message.
 *
 * BullMQ ignores an add whose id it already holds, in ANY state — also a
 * failed or completed message that will never be delivered again. So the
 * reconciler's re-dispatch (`redispatch`) sends one message per row and asks
 * for that id's state first: a waiting, delayed or active message is live and
 * left alone (no duplicate per pass for a backlog); a failed or completed one
 * is removed and added again; a missing one is added. A row the rows say is
 * waiting therefore always ends up with a deliverable message (docs/jobs.md,
 * "No job stranded"). A row that rode in a batch under another row's id gets
 * one extra message the first time a pass finds it waiting; the worker's
 * claim makes that a no-op once the row is taken.
 *
 * Redis Cluster: every queue name is a hash tag (`{jobs-<pool>}`), so all keys of one queue
 * (`<prefix>:{jobs-ingest}:wait`, `…:meta`, each job's hash) hash to one slot, as BullMQ's
 * multi-key Lua scripts need, while different pools land on different slots and so spread over
 * the masters. The same names are used on a single Redis (docs/scaling.md).
 */
import { Queue } from "bullmq";
import { bullConnection, type BullConnection } from "./redis-connection";
import type { DispatchItem, Dispatcher, RedispatchResult } from "./dispatcher";

export interface BullOptions {
  /** A single Redis (`redis://…`); ignored when `cluster` is given. */
  url?: string;
  /** Redis Cluster seed nodes (`host:port`). */
  cluster?: readonly string[];
  /** Key prefix; tests use a fresh one each. */
  prefix?: string;
}

export const DEFAULT_BULL_PREFIX = "codesynapse";

/** The BullMQ queue of a pool; the braces are the Redis Cluster hash tag. */
export function queueName(pool: string): string {
  return `{jobs-${pool}}`;
}

export function bullJobId(item: { id: string; attempts: number }): string {
  return `${item.id}-${item.attempts}`;
}

/**
 * Most row ids one message carries: a worker claims them in one statement as its slots allow,
 * so a larger message is cheaper per row but goes to one worker process; this keeps a flush of
 * many rows spread over the processes that listen on the queue (docs/scaling.md).
 */
export const MESSAGE_IDS = 32;

/** What a message carries: row ids (`ids`; a message from before batching carries one `id`). */
export interface MessageData {
  ids: string[];
}

/** The row ids of a message's data; none for anything else. */
export function messageIds(data: unknown): string[] {
  const d = data as { ids?: unknown; id?: unknown } | null;
  if (Array.isArray(d?.ids)) return d.ids.filter((x): x is string => typeof x === "string");
  return typeof d?.id === "string" ? [d.id] : [];
}

/** Connection options of a single Redis (tests that build their own BullMQ objects use it). */
export function connectionOf(o: BullOptions) {
  if (o.url === undefined) throw new Error("connectionOf: a single Redis URL is needed");
  return { url: o.url, maxRetriesPerRequest: null as null, enableOfflineQueue: true };
}

/** Message states that will still be delivered (or are being processed right now). */
const LIVE_STATES = new Set(["waiting", "delayed", "prioritized", "active", "waiting-children"]);

function byPool(items: readonly DispatchItem[]): Map<string, DispatchItem[]> {
  const out = new Map<string, DispatchItem[]>();
  for (const i of items) {
    const list = out.get(i.pool);
    if (list) list.push(i);
    else out.set(i.pool, [i]);
  }
  return out;
}

/** A pool's items as messages: consecutive rows due at the same moment, at most MESSAGE_IDS each. */
function batches(list: readonly DispatchItem[]): DispatchItem[][] {
  const out: DispatchItem[][] = [];
  for (const i of list) {
    const last = out[out.length - 1];
    if (last && last.length < MESSAGE_IDS && last[0]!.run_at.getTime() === i.run_at.getTime()) last.push(i);
    else out.push([i]);
  }
  return out;
}

export class BullMqDispatcher implements Dispatcher {
  readonly kind = "bullmq" as const;
  readonly #queues = new Map<string, { queue: Queue; conn: BullConnection }>();
  constructor(readonly options: BullOptions) {}

  /** One read of a queue's counts: a round trip to Redis (it waits while Redis is down; /readyz bounds it). */
  async ping(): Promise<void> {
    await this.queue("ingest").getWaitingCount();
  }

  queue(pool: string): Queue {
    let q = this.#queues.get(pool);
    if (!q) {
      const conn = bullConnection(this.options);
      const queue = new Queue(queueName(pool), {
        connection: conn.connection,
        prefix: this.options.prefix ?? DEFAULT_BULL_PREFIX,
        defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000 },
      });
      q = { queue, conn };
      this.#queues.set(pool, q);
    }
    return q.queue;
  }

  queues(pools: readonly string[]): Queue[] {
    return pools.map((p) => this.queue(p));
  }

  async dispatch(items: readonly DispatchItem[], now: Date): Promise<void> {
    for (const [pool, list] of byPool(items)) await this.#add(pool, batches(list), now);
  }

  async redispatch(items: readonly DispatchItem[], now: Date): Promise<RedispatchResult[]> {
    const result = new Map<DispatchItem, RedispatchResult>();
    for (const [pool, list] of byPool(items)) {
      const q = this.queue(pool);
      const states = await Promise.all(list.map((i) => q.getJobState(bullJobId(i))));
      const add: DispatchItem[] = [];
      await Promise.all(
        list.map(async (item, k) => {
          const state = states[k]!;
          if (LIVE_STATES.has(state)) return void result.set(item, "live");
          if (state === "unknown") {
            add.push(item);
            return void result.set(item, "added");
          }
          // failed or completed: never delivered again, and its id would swallow the add.
          try {
            await q.remove(bullJobId(item));
          } catch {
            // Locked: a worker took it meanwhile, so it is live after all.
            return void result.set(item, "live");
          }
          add.push(item);
          result.set(item, "replaced");
        }),
      );
      await this.#add(pool, add.map((i) => [i]), now);
    }
    return items.map((i) => result.get(i)!);
  }

  /** One message per batch: its rows' ids, under its first row's id, delayed to their run_at. */
  async #add(pool: string, messages: ReadonlyArray<readonly DispatchItem[]>, now: Date): Promise<void> {
    if (messages.length === 0) return;
    await this.queue(pool).addBulk(
      messages.map((m) => ({
        name: "job",
        data: { ids: m.map((i) => i.id) } satisfies MessageData,
        opts: { jobId: bullJobId(m[0]!), delay: Math.max(0, m[0]!.run_at.getTime() - now.getTime()) },
      })),
    );
  }

  async close(): Promise<void> {
    const all = [...this.#queues.values()];
    this.#queues.clear();
    await Promise.all(all.map(async (q) => {
      await q.queue.close();
      await q.conn.close();
    }));
  }
}

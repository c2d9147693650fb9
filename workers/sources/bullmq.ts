/**
 * The BullMQ source (JOB-2): a BullMQ Worker per pool. A message carries only
 * a job id; the processor claims that row with the same claimJobs() the
 * PostgreSQL path uses and runs it. A message for a row that is no longer
 * claimable (done, canceled, running elsewhere, not due yet) is a no-op: the
 * rows decide, the messages only hint. A row briefly locked by the reconciler
 * is retried a few times; anything still missed is re-dispatched by it.
 *
 * No job is stranded by its message (JOB-8, docs/jobs.md "No job stranded"):
 * - the processor never fails a message: a claim that hits a transient store
 *   error is retried (core/retry.ts); one that still fails is logged and the
 *   message resolved, and the row (still `queued`) is re-dispatched by the
 *   reconciler after its bound;
 * - a message whose worker died is "stalled": BullMQ's lock is as long as the
 *   row's lease, and it returns the message to `wait` however often that
 *   happens (the row's `max_attempts` bounds the runs, not the message);
 * - a message BullMQ failed anyway is replaced by the reconciler's redispatch.
 *
 * Fair share (`o.fair`, docs/jobs.md "Fair share"): BullMQ's open-source edition has no
 * groups, and its queue is FIFO, so a message is then a *turn*, not a row: the messages
 * processed together claim as many rows as they are, in the fair order of the shared claim
 * (queues/sql/fairShare.ts), whichever rows their own ids name. Every queued row still has
 * its own message, so there are as many turns as rows; a message whose row was taken by an
 * earlier turn takes another row, or nothing once none is claimable. A message that claimed
 * nothing while its own row still waits (locked by a claimer, or held back by the running
 * cap) retries like before, and the reconciler re-dispatches what is left.
 */
import { Worker } from "bullmq";
import { DEFAULT_BULL_PREFIX, queueName, type BullOptions } from "../../queues/dispatch/bullmq";
import { bullConnection, type BullConnection } from "../../queues/dispatch/redis-connection";
import { Coalescer } from "../../core/coalescer";
import { retryTransient } from "../../core/retry";
import type { CheckedClaim } from "../../queues/sql/claimJobs";
import { PoolSlots, type Slot } from "./slots";
import { claimFor, type SourceOptions } from "./source";

export interface BullSourceOptions extends SourceOptions {
  bull: BullOptions;
}

/** BullMQ fails a message stalled more often than this; the row, not the message, bounds the runs. */
const STALLS_BEFORE_FAIL = 1_000_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class BullSource {
  readonly worker: Worker;
  /** Claims of the messages being processed together: one statement per flush, each id answered by its own row (or none). */
  readonly #claims: Coalescer<string, CheckedClaim | undefined>;
  /** BullMQ bounds the handlers (its concurrency); this bounds the jobs held while their outcomes are written. */
  readonly #slots: PoolSlots;
  readonly #conn: BullConnection;
  /** Messages being processed (waiting for room, claiming, waiting for a handler slot or running). */
  #inHand = 0;

  constructor(readonly o: BullSourceOptions) {
    this.#slots = new PoolSlots(o.concurrency);
    this.#claims = new Coalescer(async (ids) => {
      if (o.fair) {
        // Turns: one fair row per message, in the order the messages came.
        const rows = await claimFor(o, ids.length);
        return ids.map((_, k) => rows[k]);
      }
      const rows = await claimFor(o, ids.length, ids);
      const byId = new Map(rows.map((c) => [c.row.id, c]));
      return ids.map((id) => byId.get(id));
    });
    this.#conn = bullConnection(o.bull);
    this.worker = new Worker(queueName(o.pool), (job) => this.#process(job.data as unknown), {
      connection: this.#conn.connection,
      prefix: o.bull.prefix ?? DEFAULT_BULL_PREFIX,
      concurrency: o.concurrency,
      // A dead worker's messages come back as soon as the row's lease would; never to `failed`.
      lockDuration: Math.min(o.leaseMs, 30_000),
      stalledInterval: Math.min(o.leaseMs, 30_000),
      maxStalledCount: STALLS_BEFORE_FAIL,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1000 },
    });
    this.worker.on("error", (err) => o.logger.warn({ code: "bullmq_error", pool: o.pool, err: err.message }, "bullmq worker error"));
  }

  async #process(data: unknown): Promise<void> {
    const id = (data as { id?: unknown } | null)?.id;
    if (typeof id !== "string") return;
    this.#adapt(+1);
    try {
      const slot = await this.#slots.takeWhenRoom();
      let handed = false;
      try {
        handed = await this.#claimAndRun(id, slot);
      } catch (err) {
        // Never fail the message into BullMQ's failed list: the row stays queued and the reconciler re-dispatches it.
        this.o.logger.warn({ code: "claim_failed", pool: this.o.pool, err: (err as Error).message }, "claim failed; the reconciler will re-dispatch");
      } finally {
        if (!handed) slot.done(); // a run releases its own slot when its outcome is written
      }
    } finally {
      this.#adapt(-1);
    }
  }

  /**
   * BullMQ hands out as many messages as its `concurrency`; the handlers are bounded by the
   * pool's slots (the runner waits for one). Every message slot busy means a backlog: take more
   * messages at once (their claims share one statement), up to the slots' prefetch bound; none
   * left in hand means drained: back to one message per handler.
   */
  #adapt(delta: 1 | -1): void {
    this.#inHand += delta;
    if (delta === 1 && this.#inHand >= this.worker.concurrency) this.#slots.claimed(1, 1);
    else if (this.#inHand === 0) this.#slots.claimed(1, 0);
    else return;
    const want = this.o.concurrency + this.#slots.prefetch;
    if (this.worker.concurrency !== want) this.worker.concurrency = want;
  }

  /** true when the row was claimed and handed to the runner (which then owns `slot`). */
  async #claimAndRun(id: string, slot: Slot): Promise<boolean> {
    const o = this.o;
    for (let attempt = 0; attempt < 4; attempt++) {
      const claimed = await this.#claims.run(id); // claimFor retries transient errors
      if (claimed) {
        const claimedAt = performance.now();
        // Resolves when the handler has returned (or the job ended before it ran); the run goes on to persist.
        await new Promise<void>((handlerDone) => {
          o.runner
            .run(claimed.row, claimed.auth, {
              claimedAt,
              start: slot.start,
              handlerDone: () => {
                slot.handlerDone();
                handlerDone();
              },
            })
            .catch(() => undefined)
            .finally(() => {
              slot.done();
              handlerDone();
            });
        });
        return true;
      }
      const now = o.clock.now();
      const cur = await retryTransient(() => o.db.selectFrom("jobs").select(["status", "run_at"]).where("id", "=", id).executeTakeFirst(), {
        onRetry: (err) => o.logger.warn({ code: "claim_retry", pool: o.pool, err: (err as Error).message }, "status read hit a transient store error; retrying"),
      });
      if (!cur || cur.status !== "queued" || cur.run_at.getTime() > now.getTime()) return false;
      await sleep(20 * (attempt + 1));
    }
    return false;
  }

  async stop(): Promise<void> {
    await this.worker.close();
    await this.#conn.close();
  }
}

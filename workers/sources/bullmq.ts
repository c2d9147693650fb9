/**
 * The BullMQ source (JOB-2): a BullMQ Worker per pool. A message carries the
 * ids of rows that became claimable together (queues/dispatch/bullmq.ts); the
 * processor takes as many turns of the claim as it has ids (below), with the
 * same claimJobs() the PostgreSQL path uses — as many at once as the pool's
 * slots have room for, the claims of messages processed together in one
 * statement — hands each claimed row to the runner and resolves the message
 * once every turn has claimed a row, or found none while its own id's row no
 * longer waits. The message is done then: the row's lease, not the message,
 * covers the run (a worker that dies after its claim leaves rows whose leases
 * expire and are reclaimed, as on the PostgreSQL path). The rows decide, the
 * messages only hint: a turn finds nothing once no row is claimable (done,
 * canceled, running elsewhere, not due yet). A row briefly locked by the
 * reconciler is retried a few times; anything still missed is re-dispatched by it.
 *
 * No job is stranded by its message (JOB-8, docs/jobs.md "No job stranded"):
 * - the processor never fails a message: a claim that hits a transient store
 *   error is retried (core/retry.ts); one that still fails is logged and the
 *   message resolved, and the rows (still `queued`) are re-dispatched by the
 *   reconciler after its bound;
 * - a message whose worker died before its claims is "stalled": BullMQ's lock is as long as the
 *   row's lease, and it returns the message to `wait` however often that
 *   happens (the row's `max_attempts` bounds the runs, not the message);
 * - a message BullMQ failed anyway is replaced by the reconciler's redispatch.
 *
 * An id in a message is a *turn*, not a row: the ids claimed together claim as many rows as
 * they are, in the order of the shared claim (queues/sql/fairShare.ts: first in, first out, or
 * fair share across organisations with `o.fair`, docs/jobs.md "Fair share"), whichever rows the
 * ids name. So the messages processed side by side (BullMQ's open-source queue has no groups,
 * and two messages of one pool run at once) never let a later batch's rows start before an
 * earlier batch's. Every queued row's id is still in a message, so there are as many turns as
 * rows; a turn whose row an earlier turn took takes another row, or nothing once none is
 * claimable. An id that claimed nothing while its own row still waits (locked by a claimer, or
 * held back by the running cap) is retried, and the reconciler re-dispatches what is left.
 */
import { Worker } from "bullmq";
import { DEFAULT_BULL_PREFIX, messageIds, queueName, type BullOptions } from "../../queues/dispatch/bullmq";
import { bullConnection, type BullConnection } from "../../queues/dispatch/redis-connection";
import { Coalescer } from "../../core/coalescer";
import { retryTransient } from "../../core/retry";
import type { CheckedClaim } from "../../queues/sql/claimJobs";
import { stillQueued } from "../../queues/sql/stillQueued";
import { PoolSlots } from "./slots";
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
  /** The pool's slots: its handlers and the jobs it holds (BullMQ's concurrency bounds only the messages in hand). */
  readonly #slots: PoolSlots;
  readonly #conn: BullConnection;
  /** Messages being processed (waiting for room, or claiming their ids). */
  #inHand = 0;

  constructor(readonly o: BullSourceOptions) {
    this.#slots = new PoolSlots(o.concurrency);
    this.#claims = new Coalescer(async (ids) => {
      // Turns: as many rows as ids, in the claim's own order (fair share, or first in first out).
      const rows = await claimFor(o, ids.length);
      return ids.map((_, k) => rows[k]);
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
    let pending = messageIds(data);
    if (pending.length === 0) return;
    this.#adapt(+1);
    try {
      for (let attempt = 0; pending.length > 0 && attempt < 4; attempt++) {
        if (attempt > 0) await sleep(20 * attempt);
        pending = await this.#claimAndRun(pending);
      }
    } catch (err) {
      // Never fail the message into BullMQ's failed list: the rows stay queued and the reconciler re-dispatches them.
      this.o.logger.warn({ code: "claim_failed", pool: this.o.pool, err: (err as Error).message }, "claim failed; the reconciler will re-dispatch");
    } finally {
      this.#adapt(-1);
    }
  }

  /**
   * BullMQ hands out as many messages as its `concurrency`; the rows held are bounded by the
   * pool's slots (a message waits for room before it claims). Every message slot busy means a
   * backlog: take more messages at once (their claims share one statement), up to the slots'
   * prefetch bound; none left in hand means drained: back to one message per handler.
   */
  #adapt(delta: 1 | -1): void {
    this.#inHand += delta;
    if (delta === 1 && this.#inHand >= this.worker.concurrency) this.#slots.claimed(1, 1);
    else if (this.#inHand === 0) this.#slots.claimed(1, 0);
    else return;
    const want = this.o.concurrency + this.#slots.prefetch;
    if (this.worker.concurrency !== want) this.worker.concurrency = want;
  }

  /**
   * Takes one turn of the claim per id as the slots have room (the first waits for room, the
   * rest take what is free at that moment, all in one claim), hands each claimed row to the
   * runner (which then owns its slot), and answers the ids whose turn found nothing while their
   * own rows still wait.
   */
  async #claimAndRun(ids: readonly string[]): Promise<string[]> {
    const o = this.o;
    const missed: string[] = [];
    for (let k = 0; k < ids.length; ) {
      const slots = [await this.#slots.takeWhenRoom()];
      while (k + slots.length < ids.length && this.#slots.hasRoom) slots.push(this.#slots.take());
      const chunk = ids.slice(k, (k += slots.length));
      let claims: Array<CheckedClaim | undefined>;
      try {
        claims = await Promise.all(chunk.map((id) => this.#claims.run(id))); // claimFor retries transient errors
      } catch (err) {
        for (const slot of slots) slot.done();
        throw err;
      }
      const claimedAt = performance.now();
      claims.forEach((claimed, j) => {
        const slot = slots[j]!;
        if (!claimed) {
          slot.done();
          missed.push(chunk[j]!);
          return;
        }
        o.runner
          .run(claimed.row, claimed.auth, { claimedAt, start: slot.start, handlerDone: slot.handlerDone })
          .catch(() => undefined)
          .finally(slot.done);
      });
    }
    if (missed.length === 0) return [];
    return retryTransient(() => stillQueued(o.db, missed, o.clock.now()), {
      onRetry: (err) => o.logger.warn({ code: "claim_retry", pool: o.pool, err: (err as Error).message }, "status read hit a transient store error; retrying"),
    });
  }

  async stop(): Promise<void> {
    await this.worker.close();
    await this.#conn.close();
  }
}

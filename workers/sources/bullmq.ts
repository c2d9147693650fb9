/**
 * The BullMQ source (JOB-2): a BullMQ Worker per pool. A message carries only
 * a job id; the processor claims that row with the same claimJobs() the
 * PostgreSQL path uses and runs it. A message for a row that is no longer
 * claimable (done, canceled, running elsewhere, not due yet) is a no-op: the
 * rows decide, the messages only hint. A row briefly locked by the reconciler
 * is retried a few times; anything still missed is re-dispatched by it.
 */
import { Worker } from "bullmq";
import { connectionOf, DEFAULT_BULL_PREFIX, queueName, type BullOptions } from "../../queues/dispatch/bullmq";
import { Coalescer } from "../../core/coalescer";
import type { CheckedClaim } from "../../queues/sql/claimJobs";
import { PoolSlots, type Slot } from "./slots";
import { claimFor, type SourceOptions } from "./source";

export interface BullSourceOptions extends SourceOptions {
  bull: BullOptions;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class BullSource {
  readonly worker: Worker;
  /** Claims of the messages being processed together: one statement per flush, each id answered by its own row (or none). */
  readonly #claims: Coalescer<string, CheckedClaim | undefined>;
  /** BullMQ bounds the handlers (its concurrency); this bounds the jobs held while their outcomes are written. */
  readonly #slots: PoolSlots;

  constructor(readonly o: BullSourceOptions) {
    this.#slots = new PoolSlots(o.concurrency);
    this.#claims = new Coalescer(async (ids) => {
      const rows = await claimFor(o, ids.length, ids);
      const byId = new Map(rows.map((c) => [c.row.id, c]));
      return ids.map((id) => byId.get(id));
    });
    this.worker = new Worker(queueName(o.pool), (job) => this.#process(job.data as unknown), {
      connection: connectionOf(o.bull),
      prefix: o.bull.prefix ?? DEFAULT_BULL_PREFIX,
      concurrency: o.concurrency,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1000 },
    });
    this.worker.on("error", (err) => o.logger.warn({ code: "bullmq_error", pool: o.pool, err: err.message }, "bullmq worker error"));
  }

  async #process(data: unknown): Promise<void> {
    const id = (data as { id?: unknown } | null)?.id;
    if (typeof id !== "string") return;
    const slot = await this.#slots.takeWhenRoom();
    let handed = false;
    try {
      handed = await this.#claimAndRun(id, slot);
    } finally {
      if (!handed) slot.done(); // a run releases its own slot when its outcome is written
    }
  }

  /** true when the row was claimed and handed to the runner (which then owns `slot`). */
  async #claimAndRun(id: string, slot: Slot): Promise<boolean> {
    const o = this.o;
    for (let attempt = 0; attempt < 4; attempt++) {
      const claimed = await this.#claims.run(id);
      if (claimed) {
        // Resolves when the handler has returned (or the job ended before it ran); the run goes on to persist.
        await new Promise<void>((handlerDone) => {
          o.runner
            .run(claimed.row, claimed.auth, () => {
              slot.handlerDone();
              handlerDone();
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
      const cur = await o.db.selectFrom("jobs").select(["status", "run_at"]).where("id", "=", id).executeTakeFirst();
      if (!cur || cur.status !== "queued" || cur.run_at.getTime() > now.getTime()) return false;
      await sleep(20 * (attempt + 1));
    }
    return false;
  }

  async stop(): Promise<void> {
    await this.worker.close();
  }
}

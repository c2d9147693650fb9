/**
 * The BullMQ source (JOB-2): a BullMQ Worker per pool. A message carries only
 * a job id; the processor claims that row with the same claimJobs() the
 * PostgreSQL path uses and runs it. A message for a row that is no longer
 * claimable (done, canceled, running elsewhere, not due yet) is a no-op: the
 * rows decide, the messages only hint. A row briefly locked by the reconciler
 * is retried a few times; anything still missed is re-dispatched by it.
 */
import { Worker } from "bullmq";
import type { Clock } from "../../core/clock";
import type { Logger } from "../../core/log";
import type { Db } from "../../db/schema";
import { connectionOf, DEFAULT_BULL_PREFIX, queueName, type BullOptions } from "../../queues/dispatch/bullmq";
import { claimJobsChecked } from "../../queues/sql/claimJobs";
import type { JobRunner } from "../runner";

export interface BullSourceOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  pool: string;
  concurrency: number;
  leaseMs: number;
  runner: JobRunner;
  bull: BullOptions;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class BullSource {
  readonly worker: Worker;

  constructor(readonly o: BullSourceOptions) {
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
    const o = this.o;
    for (let attempt = 0; attempt < 4; attempt++) {
      const now = o.clock.now();
      const [claimed] = await claimJobsChecked(o.db, { pool: o.pool, workerId: o.runner.workerId, leaseMs: o.leaseMs, limit: 1, now, ids: [id] });
      if (claimed) {
        await o.runner.run(claimed.row, claimed.auth);
        return;
      }
      const cur = await o.db.selectFrom("jobs").select(["status", "run_at"]).where("id", "=", id).executeTakeFirst();
      if (!cur || cur.status !== "queued" || cur.run_at.getTime() > now.getTime()) return;
      await sleep(20 * (attempt + 1));
    }
  }

  async stop(): Promise<void> {
    await this.worker.close();
  }
}

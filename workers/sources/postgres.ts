/**
 * The PostgreSQL-only source (no Redis, JOB-2): a loop per pool that claims up
 * to its free slots (./slots.ts: the free handler slots, plus more while a
 * backlog lasts and the handlers are fast) in one statement (claimJobs, the shared claim) and hands
 * each row to the runner. It sleeps until a wake-up: a NOTIFY for its pool, a
 * finished job freeing a slot while rows may be left unclaimed for want of
 * one, or the poll timer (which also covers delayed retries and a missed
 * notification).
 */
import { nextRunAt } from "../../queues/sql/nextRunAt";
import { PoolSlots } from "./slots";
import { claimFor, type SourceOptions } from "./source";

export interface PostgresSourceOptions extends SourceOptions {
  pollMs: number;
}

export class PostgresSource {
  readonly #slots: PoolSlots;
  #stopped = false;
  #pending = false;
  /**
   * Rows may be waiting that the last claim left for want of slots: it came back full, or a
   * wake-up found no free slot. Only then does a slot freeing wake the loop; after a short claim
   * (the pool was drained) new work announces itself (NOTIFY, the poll timer), and a claim per
   * finished job would only find nothing. Under a running cap (fair share's `runningPerOrg`) a
   * short claim may also mean "capped": a job ending makes room for its organisation's next
   * row, so there every freed slot wakes the loop.
   */
  #backlog = false;
  readonly #capped: boolean;
  #wakeup: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(readonly o: PostgresSourceOptions) {
    this.#capped = o.fair?.runningPerOrg !== undefined;
    // Claims grow with the backlog (./slots.ts).
    this.#slots = new PoolSlots(o.concurrency, () => {
      if (this.#backlog) this.wake();
    });
  }

  start(): this {
    this.#loop = this.#run();
    return this;
  }

  wake(): void {
    this.#pending = true;
    this.#wakeup?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const o = this.o;
    while (!this.#stopped) {
      this.#pending = false;
      const free = this.#slots.free;
      this.#backlog = free === 0 || this.#capped;
      if (free > 0) {
        try {
          // The claim also reads what the recheck before work needs (one round trip for both).
          const rows = await claimFor(o, free);
          const claimedAt = performance.now();
          this.#slots.claimed(free, rows.length);
          for (const { row, auth } of rows) {
            const slot = this.#slots.take();
            o.runner.run(row, auth, { claimedAt, start: slot.start, handlerDone: slot.handlerDone }).catch(() => undefined).finally(slot.done);
          }
          // A full batch: more may be waiting, claim again at once. A partial one: the queue is drained; sleep until woken.
          if (rows.length === free) {
            this.#backlog = true;
            continue;
          }
          if (rows.length > 0) {
            await this.#sleep(o.pollMs);
            continue;
          }
        } catch (err) {
          this.#backlog = true;
          o.logger.warn({ code: "claim_failed", pool: o.pool, err: (err as Error).message }, "claim failed");
        }
      }
      await this.#sleep(free > 0 ? await this.#untilNextDue() : o.pollMs);
    }
  }

  /** A delayed retry wakes the pool at its run_at (capped by the poll interval). */
  async #untilNextDue(): Promise<number> {
    try {
      const at = await nextRunAt(this.o.db, this.o.pool);
      if (!at) return this.o.pollMs;
      return Math.min(this.o.pollMs, Math.max(5, at.getTime() - this.o.clock.now().getTime()));
    } catch {
      return this.o.pollMs;
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#pending || this.#stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeup = () => {
        this.#wakeup = undefined;
        done();
      };
    });
  }
}

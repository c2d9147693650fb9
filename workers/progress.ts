/**
 * The job's progress writer: a handler reports `done` of `total` as often as it likes, and
 * the row gets the newest value with at most one write in flight (a report made while one
 * is running replaces any still waiting, so writes never land out of order). `settled()`
 * resolves once nothing is in flight or waiting: the runner awaits it after the handler,
 * so the last report is on the row before the job's outcome is (a report landing after
 * the finish would find the row no longer running and be dropped). Never throws: a failed
 * write is logged by `write` and the next report tries again.
 */
export class ProgressWriter {
  #pending: { done: number; total: number } | undefined;
  #running: Promise<void> | undefined;

  constructor(private readonly write: (done: number, total: number) => Promise<void>) {}

  report(done: number, total: number): Promise<void> {
    this.#pending = { done, total };
    this.#running ??= this.#drain();
    return this.#running;
  }

  settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending) {
        const p = this.#pending;
        this.#pending = undefined;
        await this.write(p.done, p.total).catch(() => undefined);
      }
    } finally {
      this.#running = undefined;
    }
  }
}

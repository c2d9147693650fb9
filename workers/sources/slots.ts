/**
 * A pool's slots. A claimed job holds a handler slot until its handler has
 * returned (or the job ended before running it) and a held slot until its
 * outcome is written (the recheck before persist and the fenced finish, under
 * its lease). At most `concurrency` handlers run at once and at most
 * 2 × `concurrency` jobs are held, so a slow database cannot pile up finished
 * jobs waiting to be written while more are claimed.
 */
export interface Slot {
  handlerDone: () => void;
  done: () => void;
}

export class PoolSlots {
  #handlers = 0;
  #held = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    private readonly onFree: () => void = () => undefined,
  ) {}

  /** How many more jobs may be claimed now. */
  get free(): number {
    return Math.max(0, Math.min(this.concurrency - this.#handlers, 2 * this.concurrency - this.#held));
  }

  /** Takes slots once fewer than 2 × concurrency jobs are held (the BullMQ path: BullMQ itself bounds the handlers). */
  async takeWhenRoom(): Promise<Slot> {
    while (this.#held >= 2 * this.concurrency) await new Promise<void>((r) => this.#waiting.push(r));
    return this.take(); // same tick as the check: no other taker in between
  }

  /** Takes both slots for one claimed job; each release is idempotent. */
  take(): Slot {
    this.#handlers++;
    this.#held++;
    let handler = true;
    let held = true;
    const handlerDone = () => {
      if (!handler) return;
      handler = false;
      this.#handlers--;
      this.onFree();
    };
    return {
      handlerDone,
      done: () => {
        handlerDone();
        if (!held) return;
        held = false;
        this.#held--;
        this.#waiting.splice(0).forEach((r) => r());
        this.onFree();
      },
    };
  }
}

/**
 * Coalescer: requests that arrive while a flush is in flight wait and go out
 * together in the next one (at most `max` per flush, one flush at a time).
 * No timer: a lone request is sent at once. Every request is answered by a
 * flush that STARTED AFTER it was made, so a check coalesced here reads the
 * database no earlier than an individual check would have.
 */
export class Coalescer<I, O> {
  readonly #waiting: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  #busy = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    private readonly max = 64,
  ) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.max);
        try {
          const out = await this.flush(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(out[i] as O));
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.#busy = false;
    }
  }
}

/**
 * Coalescer: requests that arrive while a flush is in flight wait and go out
 * together in the next one (at most `max` per flush, one flush at a time).
 * No timer: a lone request is sent in the same turn of the event loop — the
 * flush starts one microtask after the first request, so the requests made by
 * one burst of continuations (the answers of a batch resuming their callers,
 * who each ask again) go out together instead of the first alone and the rest
 * after it. Every request is answered by a
 * flush that STARTED AFTER it was made, so a check coalesced here reads the
 * database no earlier than an individual check would have.
 *
 * Batches isolate failures: when a flush of several members throws
 * an error that is not transient (core/retry.ts isTransientError: a NUL byte,
 * a bad cast, a constraint — something one member brought), each member is
 * sent again ALONE through the same flush (a one-item array), one after the
 * other, so only the bad member fails, with its own error, and the others get
 * their own answers (in request order; still from flushes started after their
 * requests). A member that was alone is never sent twice.
 *
 * A transient error (the store went away, a deadlock, a serialization
 * failure) is not split: no member caused it, and N single flushes would only
 * fail the same way N times against a store that is already struggling — and
 * a statement whose commit happened but whose answer was lost would be run
 * again. Every member of that batch gets the error; each caller's own retry
 * policy (core/retry.ts) decides. Likewise, a transient error met while
 * sending members alone ends the splitting: that member and those not yet
 * sent get it.
 *
 * The contract for `flush`: a non-transient error means the flush wrote
 * nothing that a member's second run would repeat (one statement or one
 * transaction, or writes that are idempotent/fenced). The users, checked:
 * - core/authorize.ts, the authorization reads of one identity store: ONE
 *   read statement (an expired binding's tombstone, written by the caller
 *   that decides, is idempotent);
 * - queues/submit.ts insertAuthorized: authorizeAll (reads, above) then ONE
 *   multi-row INSERT (atomic); nothing after it throws (its dispatch logs
 *   its own errors);
 * - workers/runner.ts #finish: ONE finishJobs UPDATE fenced by each row's
 *   lease token and `status = 'running'` (a second run of a finished row
 *   updates nothing: "lost", never a double finish);
 * - workers/sources/bullmq.ts #claims: ONE claim statement (claimJobs; a row
 *   already running is not claimable again, so a re-claim takes nothing).
 * A flush that cannot promise this passes `{ isolate: false }`: a failed batch
 * then rejects every member with the batch's error, as before.
 */
import { isTransientError } from "./retry";

export interface CoalescerOptions {
  /** Most members per flush (default 64). */
  max?: number;
  /** Send the members of a batch that failed (not transiently) again one by one (default true). */
  isolate?: boolean;
}

export interface PipelinedCoalescerOptions extends CoalescerOptions {
  /** Most writes in flight at once (default 1: one at a time, in batch order). */
  writers?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

export class Coalescer<I, O> {
  readonly #waiting: Array<Waiting<I, O>> = [];
  readonly #max: number;
  readonly #isolate: boolean;
  #busy = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    opts: CoalescerOptions = {},
  ) {
    this.#max = opts.max ?? 64;
    this.#isolate = opts.isolate ?? true;
  }

  run(item: I): Promise<O> {
    return this.runAll([item])[0]!;
  }

  /** Several requests made at once: they go out together (in one flush when at most `max`), each answered on its own. */
  runAll(items: readonly I[]): Array<Promise<O>> {
    const out = items.map((item) => new Promise<O>((resolve, reject) => this.#waiting.push({ item, resolve, reject })));
    this.#schedule();
    return out;
  }

  /** The next flush starts one microtask from now (see the class comment), unless one is under way. */
  #schedule(): void {
    if (this.#busy) return;
    this.#busy = true;
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.#max);
        try {
          const out = await this.flush(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(out[i] as O));
        } catch (err) {
          if (batch.length > 1 && this.#isolate && !isTransientError(err)) await this.#alone(batch);
          else for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.#busy = false;
    }
  }

  /** Each member of a failed batch through its own flush, in order; a transient error stops the rest. */
  async #alone(batch: Array<Waiting<I, O>>): Promise<void> {
    for (let i = 0; i < batch.length; i++) {
      const b = batch[i]!;
      try {
        const [out] = await this.flush([b.item]);
        b.resolve(out as O);
      } catch (err) {
        b.reject(err);
        if (isTransientError(err)) {
          for (const rest of batch.slice(i + 1)) rest.reject(err);
          return;
        }
      }
    }
  }
}

/**
 * A Coalescer whose flush is two steps, a read (`check`) and a write (`write`), pipelined:
 * while one batch is written, the next batch is read. Inputs and states: requests wait; the
 * waiting ones form the next batch when the previous batch's read has ended AND fewer than
 * `writers` writes are in flight (so at most one read and `writers` writes are in flight, and a
 * read runs at most `writers` writes ahead of its own). Invariants, beside the Coalescer's:
 * - every request is read by a `check` that started after it was made, and written by its
 *   own batch's `write` after that read (a check is never skipped, never reused across batches);
 * - writes start in batch order; with `writers: 1` (the default) they also run one at a time;
 * - a batch that fails (in either step) with an error that is not transient is sent again
 *   member by member, each through check then write; a transient error reaches every member,
 *   as in Coalescer.
 * Why: the two steps are serial round trips, and the submitters (or handlers) of one batch
 * come back while the other is in flight — with one step of each in flight, neither waits.
 * A write that ends in a commit waits for the log flush: with `writers: 2` a second batch's
 * commit joins the first's flush (group commit) instead of queueing behind it.
 */
export class PipelinedCoalescer<I, C, O> {
  readonly #waiting: Array<Waiting<I, O>> = [];
  readonly #max: number;
  readonly #isolate: boolean;
  readonly #writers: number;
  #busy = false;
  /** The writes in flight. */
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly check: (items: I[]) => Promise<C>,
    private readonly write: (items: I[], checked: C) => Promise<O[]>,
    opts: PipelinedCoalescerOptions = {},
  ) {
    this.#max = opts.max ?? 64;
    this.#isolate = opts.isolate ?? true;
    this.#writers = Math.max(1, opts.writers ?? 1);
  }

  run(item: I): Promise<O> {
    const out = new Promise<O>((resolve, reject) => this.#waiting.push({ item, resolve, reject }));
    if (!this.#busy) {
      this.#busy = true;
      queueMicrotask(() => void this.#drain());
    }
    return out;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.#max);
        const items = batch.map((b) => b.item);
        let step: () => Promise<void>;
        try {
          const checked = await this.check(items);
          step = async () => {
            try {
              const out = await this.write(items, checked);
              batch.forEach((b, i) => b.resolve(out[i] as O));
            } catch (err) {
              await this.#failed(batch, err);
            }
          };
        } catch (err) {
          step = () => this.#failed(batch, err);
        }
        // This batch's write starts once fewer than `writers` are in flight; the next batch is
        // read while it is written.
        while (this.#inFlight.size >= this.#writers) await Promise.race(this.#inFlight);
        const w: Promise<void> = step().finally(() => this.#inFlight.delete(w));
        this.#inFlight.add(w);
      }
    } finally {
      this.#busy = false;
    }
  }

  async #failed(batch: Array<Waiting<I, O>>, err: unknown): Promise<void> {
    if (batch.length <= 1 || !this.#isolate || isTransientError(err)) {
      for (const b of batch) b.reject(err);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const b = batch[i]!;
      try {
        const [out] = await this.write([b.item], await this.check([b.item]));
        b.resolve(out as O);
      } catch (e) {
        b.reject(e);
        if (isTransientError(e)) {
          for (const rest of batch.slice(i + 1)) rest.reject(e);
          return;
        }
      }
    }
  }
}

/**
 * A pool's slots. Inputs: the pool's `concurrency`, and from the source the
 * jobs it claims (`take`), each job's start (`start`: waits for a handler
 * slot), its handler's return (`handlerDone`) and its end (`done`: the
 * outcome is written).
 *
 * A claimed job is, in turn: *waiting* (claimed, lease held and renewed by
 * the runner, handler not started), *running* (holds one of `concurrency`
 * handler slots), *writing* (handler returned; the recheck before persist
 * and the fenced finish still run under its lease) and done.
 *
 * Invariants:
 * - at most `concurrency` handlers run at once (`start` waits for a slot);
 * - `free` — how many rows the source may claim now — is the free handler
 *   slots minus the jobs already waiting for one, plus `prefetch`; and at
 *   most 2 × `concurrency` + `prefetch` jobs are held. `prefetch` counts only
 *   while outcomes keep up (fewer than `concurrency` being written): when
 *   they cannot be written (a slow or stuck database) the pool is back to
 *   2 × `concurrency` and stops claiming, as without prefetch;
 * - `prefetch` (the claim batch beyond the free handler slots) adapts to the
 *   backlog: it grows (×2) while claims come back full — a deep queue — and
 *   drops to 0 when one comes back short (drained). It is bounded by the
 *   pool's observed pace — a moving average of the time between two jobs
 *   ending (handler and outcome write, so a job whose cost is its persist
 *   counts it): the jobs claimed ahead must be expected to start within
 *   PREFETCH_BUDGET_MS (the runner re-reads authorization for a job whose
 *   claim-time read is older than EARLIER_READ_FRESH_MS (core/authorize.ts) when it starts) — and by
 *   PREFETCH_PER_SLOT × concurrency and MAX_PREFETCH, so a worker that dies
 *   strands (until its leases expire) few more jobs than it runs. Slow jobs
 *   (seconds) leave it at 0: one claim per free handler slot, as before. Under fair share the rows claimed
 *   ahead are taken in the fair order like any claim, count as running for
 *   the next claim's turns and the running cap, and so delay a newly arrived
 *   organisation by at most the budget. `adaptive: false` turns it off.
 */

/** Jobs claimed ahead of a free handler slot should start within this, at the observed handler pace. */
export const PREFETCH_BUDGET_MS = 100;
/** Most jobs claimed ahead of free handler slots, per handler slot and in all, whatever the pace. */
export const PREFETCH_PER_SLOT = 8;
export const MAX_PREFETCH = 256;

export interface Slot {
  /** Resolves when this job may start its handler (a handler slot is free); at once if it already holds one. */
  start: () => Promise<void>;
  handlerDone: () => void;
  done: () => void;
}

type State = "waiting" | "running" | "writing" | "done";

export class PoolSlots {
  #running = 0;
  #waiting = 0;
  #writing = 0;
  #held = 0;
  #prefetch = 0;
  /** Moving average of the time (ms) between two jobs ending: the pool's pace. */
  #paceMs: number | undefined;
  #lastDone: number | undefined;
  readonly #gate: Array<() => void> = [];
  readonly #room: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    private readonly onFree: () => void = () => undefined,
    private readonly opts: { adaptive?: boolean } = {},
  ) {}

  /** Jobs claimed ahead of free handler slots, now (0 while outcomes are not keeping up). */
  get prefetch(): number {
    return this.#writing < this.concurrency ? this.#prefetch : 0;
  }

  /** How many more jobs may be claimed now. */
  get free(): number {
    const extra = this.prefetch;
    return Math.max(0, Math.min(this.concurrency - this.#running - this.#waiting + extra, 2 * this.concurrency + extra - this.#held));
  }

  /** Jobs held: claimed and not yet ended. */
  get held(): number {
    return this.#held;
  }

  /**
   * After a claim that asked for `asked` rows and got `got`: a full claim means a backlog, so
   * claim further ahead next time (within the pace bound); a short one means drained.
   */
  claimed(asked: number, got: number): void {
    if (this.opts.adaptive === false) return;
    if (got < asked) this.#prefetch = 0;
    else if (asked > 0) this.#prefetch = Math.min(Math.max(this.concurrency, this.#prefetch * 2), this.#maxPrefetch());
  }

  #maxPrefetch(): number {
    if (this.#paceMs === undefined) return 0;
    return Math.min(MAX_PREFETCH, PREFETCH_PER_SLOT * this.concurrency, Math.floor(PREFETCH_BUDGET_MS / Math.max(this.#paceMs, 0.01)));
  }

  /** Fewer than the held bound are held: one more job may be claimed now. */
  get hasRoom(): boolean {
    return this.#held < 2 * this.concurrency + this.prefetch;
  }

  /** Waits until fewer than the held bound are held (the BullMQ path: its messages wait here before claiming). */
  async takeWhenRoom(): Promise<Slot> {
    while (!this.hasRoom) await new Promise<void>((r) => this.#room.push(r));
    return this.take(); // same tick as the check: no other taker in between
  }

  /** One claimed job; each transition is idempotent. */
  take(): Slot {
    this.#held++;
    this.#waiting++;
    let state: State = "waiting";
    let starting: Promise<void> | undefined;
    const leaveHandler = () => {
      if (state === "waiting") this.#waiting--;
      else if (state === "running") {
        this.#running--;
        this.#gate.shift()?.();
      }
    };
    const handlerDone = () => {
      if (state !== "waiting" && state !== "running") return;
      leaveHandler();
      state = "writing";
      this.#writing++;
      this.onFree();
    };
    return {
      start: () =>
        (starting ??= (async () => {
          while (state === "waiting" && this.#running >= this.concurrency) await new Promise<void>((r) => this.#gate.push(r));
          if (state !== "waiting") {
            // Ended while it waited: hand the wake-up it may have taken to the next waiter.
            if (this.#running < this.concurrency) this.#gate.shift()?.();
            return;
          }
          this.#waiting--;
          this.#running++;
          state = "running";
        })()),
      handlerDone,
      done: () => {
        if (state === "done") return;
        if (state === "writing") this.#writing--;
        else leaveHandler();
        state = "done";
        this.#held--;
        const now = performance.now();
        if (this.#lastDone !== undefined) {
          const ms = now - this.#lastDone;
          this.#paceMs = this.#paceMs === undefined ? ms : 0.8 * this.#paceMs + 0.2 * ms;
        }
        this.#lastDone = now;
        this.#room.splice(0).forEach((r) => r());
        this.onFree();
      },
    };
  }
}

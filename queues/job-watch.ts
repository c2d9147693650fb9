/**
 * One shared watch of job statuses per process: what the job event
 * streams (`GET /api/v1/jobs/{id}/events`) and the bounded waits (`?wait=`,
 * `get_job` `wait_ms`) listen to.
 *
 * Inputs: subscriptions `watch(id, onRow)`, each made after the caller has
 * checked that the job is its own (getJob with its identity). States: idle (no
 * subscription: no timer, no statement) or polling. Invariants: while anyone
 * watches, ONE statement per `pollMs` reads the rows of every watched id, in
 * chunks of `POLL_CHUNK` ids, however many clients watch — never a statement
 * per client; at most `maxWatched` subscriptions per process (beyond that a
 * clear 503, so memory and the statement stay bounded); a poll never overlaps
 * the previous one.
 *
 * Why a poll and not NOTIFY: status changes are written by the claim, the
 * fenced finishes and the sweeper, ~1,300 a second under load; a NOTIFY in those
 * transactions would take PostgreSQL's global notify lock through every commit
 * (docs/jobs.md, Dispatch: ≈1,200 → ≈400 inserts/s measured). The poll costs
 * nothing when nobody watches and one indexed primary-key read per interval
 * when someone does, and works the same on PGlite and PostgreSQL.
 */
import { AppError } from "../core/errors";
import { JOB_WATCH_POLL_MS, MAX_WATCHED_JOBS } from "../core/limits";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";
import { TERMINAL_STATUSES, type JobRow } from "./jobs";
import { jobsById } from "./sql/jobsById";

const POLL_CHUNK = 500;

export type JobListener = (row: JobRow) => void;

export interface JobWatcherOptions {
  db: Db;
  pollMs?: number;
  maxWatched?: number;
  logger?: Logger;
}

export const isTerminal = (row: Pick<JobRow, "status">) => TERMINAL_STATUSES.includes(row.status);

export class JobWatcher {
  readonly #listeners = new Map<string, Set<JobListener>>();
  readonly #onClose = new Set<() => void>();
  readonly #pollMs: number;
  readonly #max: number;
  #count = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Statements sent so far (for tests and the benchmark: they must not grow with clients). */
  polls = 0;

  constructor(private readonly o: JobWatcherOptions) {
    this.#pollMs = o.pollMs ?? JOB_WATCH_POLL_MS;
    this.#max = o.maxWatched ?? MAX_WATCHED_JOBS;
  }

  /** Subscriptions open now. */
  get size(): number {
    return this.#count;
  }

  /**
   * Calls `onRow` with the job's row on every poll until the returned function is called;
   * `onClose` when the watcher closes first (shutdown), so a waiter answers at once.
   */
  watch(id: string, onRow: JobListener, onClose?: () => void): () => void {
    if (this.#closed) throw new AppError("unavailable", { message: "The server is shutting down." });
    if (this.#count >= this.#max) throw new AppError("unavailable", { message: "Too many jobs are being watched on this server; retry shortly." });
    let set = this.#listeners.get(id);
    if (!set) this.#listeners.set(id, (set = new Set()));
    const listener: JobListener = (row) => onRow(row);
    set.add(listener);
    if (onClose) this.#onClose.add(onClose);
    this.#count++;
    this.#schedule();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (onClose) this.#onClose.delete(onClose);
      this.#count--;
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(id) === set) this.#listeners.delete(id);
    };
  }

  #schedule(): void {
    if (this.#timer || this.#closed || this.#listeners.size === 0) return;
    this.#timer = setTimeout(() => void this.#poll(), this.#pollMs);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    const ids = [...this.#listeners.keys()];
    try {
      for (let i = 0; i < ids.length; i += POLL_CHUNK) {
        this.polls++;
        const rows = await jobsById(this.o.db, ids.slice(i, i + POLL_CHUNK));
        for (const row of rows) for (const l of [...(this.#listeners.get(row.id) ?? [])]) l(row);
      }
    } catch (err) {
      // A store that is down: watchers keep their last status and the next poll tries again.
      this.o.logger?.warn({ code: "job_watch_failed", err: (err as Error).name }, "job status poll failed; retrying");
    } finally {
      this.#timer = undefined;
      this.#schedule();
    }
  }

  /** Stops polling; subscribers get nothing more (their streams are closed by their owners). */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const f of [...this.#onClose]) f(); // waiters answer now (and unsubscribe)
    this.#onClose.clear();
    this.#listeners.clear();
    this.#count = 0;
  }
}

/**
 * Waits at most `waitMs` for the job to reach a terminal status; resolves with the newest row
 * seen (`first` when nothing changed), early when terminal or when `signal` aborts.
 */
export function waitForTerminal(watcher: JobWatcher, first: JobRow, waitMs: number, signal?: AbortSignal): Promise<JobRow> {
  if (waitMs <= 0 || isTerminal(first) || signal?.aborted) return Promise.resolve(first);
  return new Promise((resolve, reject) => {
    let last = first;
    let unwatch = () => {};
    const timer = setTimeout(() => finish(), waitMs);
    const finish = () => {
      clearTimeout(timer);
      unwatch();
      signal?.removeEventListener("abort", finish);
      resolve(last);
    };
    try {
      unwatch = watcher.watch(
        first.id,
        (row) => {
          last = row;
          if (isTerminal(row)) finish();
        },
        () => finish(),
      );
    } catch (err) {
      clearTimeout(timer);
      reject(err as Error);
      return;
    }
    signal?.addEventListener("abort", finish, { once: true });
  });
}

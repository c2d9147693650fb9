/**
 * The one job runner (JOB-3, JOB-4, JOB-6). Input: a row this process just
 * claimed (status running, our lease token). Steps:
 *
 *   1. rebuild the Identity from the row (makeIdentity) and the principal from
 *      its stored ids; validate the stored params against the kind's schema;
 *   2. bind both to a fresh ExecutionContext whose AbortSignal fires on lease
 *      loss, cancel or shutdown, and run the rest inside it (runInExecution);
 *   3. authorize() — the API's own check, through the one gateway
 *      (core/authorize.ts) — before any work: on the claim's read of the row's
 *      identity (claimJobsChecked, same statement) while it is fresh, else on a
 *      read shared with the checks made at the same moment; same rules, same codes;
 *   4. run the handler with that recheck's answer (identity, binding deadline,
 *      repository, principal: JobRunContext.auth), then free its handler slot (`onHandlerDone`: the source
 *      may start the next handler while this outcome is written, still under
 *      this job's lease; workers/sources/slots.ts bounds how many are held);
 *   5. persist, one path for every job: authorize() again (a refusal writes
 *      nothing but the refused outcome), then the finish fenced by the lease
 *      token — in ONE transaction with the handler's writes when it has any
 *      (a lost lease writes none of them), else shared with the jobs finishing
 *      at the same moment (one finishJobs, core/coalescer.ts).
 *
 * Outcomes are all written with the lease token in the where clause; a worker
 * that lost its lease writes nothing at all.
 */
import { randomUUID } from "node:crypto";
import { authorize, type AuthRow, type Authorized, type Principal } from "../core/authorize";
import { coerceError } from "../core/errors";
import { ExecutionContext, runInExecution } from "../core/execution/context";
import { makeIdentity, type Identity } from "../core/execution/identity";
import type { Db, RepoLevel } from "../db/schema";
import { inTransaction } from "../core/transaction";
import type { JobRow } from "../queues/jobs";
import type { IdentityStore } from "../core/identity-store";
import type { JobOutcomeLabel } from "../queues/metrics";
import type { JobRegistry } from "../queues/registry";
import { endJob } from "../queues/sql/endJob";
import { finishJob, finishJobs, setJobResult } from "../queues/sql/finishJob";
import { PipelinedCoalescer } from "../core/coalescer";
import type { RetryPolicy } from "../core/retry";
import { reportProgress } from "../queues/sql/reportProgress";
import { fencedStores } from "./fenced-stores";
import { inJobSpan } from "./job-span";
import type { JobAuthorized, JobHandler, JobOutcome, PersistStores } from "./handler";
import { keepLease, type AbortReason } from "./lease-keeper";
import { isRefusal, JobOutcomes, type OutcomeOptions } from "./outcomes";
import { ProgressWriter } from "./progress";

/**
 * Writing a finished job's outcome: retried for as long as the lease is not known to be lost
 * (a renewal that found our token gone), so a database that drops a connection or restarts
 * under the finish does not turn a done job into a lease expiry and a second run.
 */
const OUTCOME_RETRY: RetryPolicy = { attempts: 1_000, baseMs: 100, maxMs: 2_000 };

export interface RunnerOptions extends OutcomeOptions {
  /** The identity store over a handle — the root one, or the fenced transaction (main/ wires db/sql/identity/). */
  identity: (db: Db) => IdentityStore;
  registry: JobRegistry<JobHandler>;
  leaseMs: number;
  workerId?: string;
  /** The writable stores handlers' `persist` steps get, bound to the fenced transaction (./fenced-stores.ts). */
  stores?: PersistStores;
}

/** What the source tells the runner about the slot a claimed job holds (workers/sources/slots.ts). */
export interface RunSlot {
  /** performance.now() when the claim's answer arrived (the age of `preAuth`). */
  claimedAt?: number;
  /** Resolves when the job may start its handler. */
  start?: () => Promise<void>;
  handlerDone?: () => void;
}

/** Resolves when `p` does or `signal` aborts, whichever comes first. */
function untilOrAborted(p: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

interface Active {
  abort: (reason: AbortReason) => void;
}

/** A job's fenced finish with nothing else to write. */
interface Completion {
  id: string;
  token: string;
  now: Date;
  result: unknown;
}

export class JobRunner {
  readonly workerId: string;
  readonly #active = new Map<string, Active>();
  readonly #idle = new Set<() => void>();
  #closing = false;
  /** Authorization's reads on the root handle: the gateway (core/authorize.ts) shares them among the jobs checking together. */
  readonly #identity: IdentityStore;
  /** Fenced finishes of jobs finishing together with nothing else to write: one finishJobs per flush. */
  readonly #finish: PipelinedCoalescer<Completion, undefined, boolean>;
  /** The outcome writes other than success (./outcomes.ts). */
  readonly #outcomes: JobOutcomes;

  constructor(readonly o: RunnerOptions) {
    this.workerId = o.workerId ?? `w-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.#outcomes = new JobOutcomes(o);
    this.#identity = o.identity(o.db);
    // Two finishes in flight at once (each fenced by its own rows' lease tokens): the second
    // commit joins the first's log flush instead of waiting behind it.
    this.#finish = new PipelinedCoalescer(
      async () => undefined,
      async (items) => {
        const finished = await finishJobs(o.db, items);
        return items.map((c) => finished.has(c.id));
      },
      { writers: 2 },
    );
  }

  get activeCount(): number {
    return this.#active.size;
  }

  activeIds(): string[] {
    return [...this.#active.keys()];
  }

  /** Aborts a job running here (cancel fast path, cancel watch). */
  abort(jobId: string, reason: AbortReason): void {
    this.#active.get(jobId)?.abort(reason);
  }

  /**
   * Takes no new job; running ones get `drainMs` to finish (and persist), then the rest are
   * aborted with "shutdown" (a restartable row is handed back at once, a fix job ends
   * abandoned). Resolves when no job runs here any more.
   */
  async shutdown(drainMs = 0): Promise<void> {
    this.#closing = true;
    const deadline = Date.now() + drainMs;
    while (this.#active.size > 0 && Date.now() < deadline) await this.#untilIdleOr(deadline - Date.now());
    for (const a of this.#active.values()) a.abort("shutdown");
    while (this.#active.size > 0) await this.#untilIdleOr(Infinity);
  }

  /** Resolves when a job ends here, or after `ms`. */
  #untilIdleOr(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#idle.delete(done);
        resolve();
      };
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      this.#idle.add(done);
    });
  }

  /**
   * `preAuth`: authorize()'s read for this row's identity, taken by the claiming statement
   * (claimJobsChecked); the recheck before work then applies the rules to it instead of
   * sending its own statement — if the handler starts within EARLIER_READ_FRESH_MS
   * (core/authorize.ts) of the claim (`slot.claimedAt`); a job that waited longer for a
   * handler slot, or one without it, reads again (shared with the checks made together).
   * `slot.start`: resolves when a handler slot is free (a job claimed ahead of one waits
   * there, its lease renewed, cancel and shutdown reaching it). `slot.handlerDone`: called
   * once, when the handler has returned (before the persist step) or, if it never ran, when
   * the job ends.
   */
  run(row: JobRow, preAuth?: AuthRow, slot: RunSlot = {}): Promise<JobOutcomeLabel> {
    // The run continues the submitting request's trace (the row's traceparent; ./job-span.ts).
    return inJobSpan(row, () => this.#run(row, preAuth, slot));
  }

  async #run(row: JobRow, preAuth: AuthRow | undefined, slot: RunSlot): Promise<JobOutcomeLabel> {
    const onHandlerDone = slot.handlerDone;
    const started = performance.now();
    const token = row.lease_token;
    if (row.status !== "running" || !token) throw new Error("runner was given a row it does not hold");
    if (this.#closing) {
      // Claimed while shutting down: hand it straight back.
      return this.#outcomes.aborted(row, token, "shutdown");
    }
    const ac = new AbortController();
    const leaseLost = new AbortController();
    const abort = (reason: AbortReason) => {
      if (reason === "lease_lost") leaseLost.abort(reason);
      if (!ac.signal.aborted) ac.abort(reason);
    };
    this.#active.set(row.id, { abort });
    const stopKeeper = keepLease(this.o.db, this.o.clock, { id: row.id, token, leaseMs: this.o.leaseMs }, abort, (err) =>
      this.o.logger.warn({ code: "lease_renewal_failed", pool: row.pool, kind: row.kind, err: (err as Error).message }, "lease renewal failed"),
    );
    let outcome: JobOutcomeLabel;
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      onHandlerDone?.();
    };
    try {
      outcome = await this.#execute(row, token, ac.signal, leaseLost.signal, preAuth, slot, freeSlot);
    } catch (err) {
      // A store error while writing the outcome: the lease will expire and the sweeper decides.
      this.o.logger.error({ code: coerceError(err).code, pool: row.pool, kind: row.kind, err: (err as Error).message }, "job outcome not recorded");
      outcome = "lease_lost";
    } finally {
      freeSlot();
      stopKeeper();
      this.#active.delete(row.id);
      for (const r of this.#idle) r();
      this.#idle.clear();
    }
    this.o.metrics?.finished(row.pool, row.kind, outcome, (performance.now() - started) / 1000);
    return outcome;
  }

  async #execute(
    row: JobRow,
    token: string,
    signal: AbortSignal,
    leaseLost: AbortSignal,
    preAuth: AuthRow | undefined,
    slot: RunSlot,
    freeSlot: () => void,
  ): Promise<JobOutcomeLabel> {
    const { db, clock } = this.o;
    const end = async (status: "refused" | "failed" | "abandoned" | "canceled", code: string): Promise<JobOutcomeLabel> =>
      (await this.#outcomes.store(() => endJob(db, { id: row.id, token, now: clock.now(), status, errorCode: code }))) ? status : "lease_lost";

    const handler = this.o.registry.get(row.kind);
    if (!handler || handler.pool !== row.pool) return end("failed", "unknown_kind");
    // Defensive (JOB-4): a non-restartable job is never run a second time.
    if (!row.restartable && row.attempts > 1) return end("abandoned", "interrupted");

    // 1. Rebuild identity and principal from the row; the row is data, so validate it again.
    let identity: Identity | null = null;
    let principal: Principal | null = null;
    if (row.system !== (handler.system === true)) return this.#outcomes.refuse(row, token, "before_work", "invalid_identity");
    if (!row.system) {
      try {
        identity = makeIdentity(row);
      } catch {
        return this.#outcomes.refuse(row, token, "before_work", "invalid_identity");
      }
      if (!row.actor_user_id) return this.#outcomes.refuse(row, token, "before_work", "unauthenticated");
      principal = { orgId: identity.tenant_id, userId: row.actor_user_id, apiKeyId: row.api_key_id, loginSessionId: row.login_session_id };
    }
    const parsed = handler.params.safeParse(row.params);
    if (!parsed.success) return end("failed", "invalid_params");
    const repoCheck: { repo?: { ref: string; level: RepoLevel } } =
      handler.repoLevel && row.repo_id ? { repo: { ref: row.repo_id, level: handler.repoLevel } } : {};
    if (handler.repoLevel && !row.repo_id) return end("failed", "invalid_params");

    // 2. The job's own execution context.
    const context = new ExecutionContext(identity ? { identity, signal } : { signal });
    return runInExecution(context, async () => {
      // A job claimed ahead of a free handler slot waits for one here (its lease renewed meanwhile).
      if (slot.start) {
        await untilOrAborted(slot.start(), signal);
        if (signal.aborted) return this.#outcomes.aborted(row, token, signal.reason as AbortReason);
      }
      // 3. Recheck before work: on the claim's read while it is fresh, else on a read made now
      // (shared with the jobs checking at the same moment: core/authorize.ts).
      let pre: Authorized | undefined;
      if (principal && identity) {
        // The claim read the row's own session and repository (queues/sql/claimJobs.ts).
        const of = { sessionId: identity.session_id, repoRef: row.repo_id ?? undefined };
        const earlier = preAuth ? { row: preAuth, at: slot.claimedAt ?? performance.now(), of } : undefined;
        try {
          pre = await authorize(this.#identity, clock, principal, identity.session_id, { ...repoCheck, earlier });
        } catch (err) {
          if (isRefusal(err)) return this.#outcomes.refuse(row, token, "before_work", err.code, err);
          throw err;
        }
      }
      // What the handler gets: the recheck's answer, with the identity bound to this context (the
      // row's, which the recheck accepted) and the principal it checked.
      const auth: JobAuthorized | null = pre && principal && identity ? Object.freeze({ ...pre, identity, principal: Object.freeze({ ...principal }) }) : null;
      if (signal.aborted) return this.#outcomes.aborted(row, token, signal.reason as AbortReason);

      // 4. The handler.
      let out: JobOutcome | void;
      const progress = new ProgressWriter((done, total) =>
        reportProgress(db, { id: row.id, token, done, total }).then(
          () => undefined,
          (err: unknown) => this.o.logger.warn({ code: "progress_write_failed", err: (err as Error).message }, "job progress could not be recorded"),
        ),
      );
      try {
        out = await handler.run({
          job: row,
          params: parsed.data,
          auth,
          signal,
          db,
          clock,
          logger: this.o.logger,
          progress: (done, total) => progress.report(done, total),
        });
      } catch (err) {
        await progress.settled();
        if (signal.aborted) return this.#outcomes.aborted(row, token, signal.reason as AbortReason);
        if (isRefusal(err)) return this.#outcomes.refuse(row, token, "before_work", err.code, err);
        return this.#outcomes.fail(row, token, err);
      }
      // The last report is on the row before the outcome is.
      await progress.settled();
      if (signal.aborted) return this.#outcomes.aborted(row, token, signal.reason as AbortReason);
      freeSlot();

      // 5. Persist: rechecked, fenced, atomic — one path for every job. The recheck is authorize()
      // again, read together with the jobs checking at the same moment; then the finish, fenced by
      // the lease token: alone in a transaction with the handler's writes when it has any (all of
      // it or none), else shared with the jobs finishing at the same moment (one finishJobs whose
      // every row names its own lease token). Retried whole while the lease is not known lost: a
      // retry after an unseen commit finds the token gone and writes nothing.
      try {
        const persist = out?.persist;
        const result = out?.result ?? null;
        const finished = await this.#outcomes.store(
          async () => {
            if (principal && identity) await authorize(this.#identity, clock, principal, identity.session_id, repoCheck);
            if (!persist) return this.#finish.run({ id: row.id, token, now: clock.now(), result });
            return inTransaction(db, async (tx) => {
              if (!(await finishJob(tx, { id: row.id, token, now: clock.now(), result }))) return false;
              const written = await persist(tx, fencedStores(this.o.stores ?? {}, tx));
              if (written) await setJobResult(tx, row.id, written.result);
              return true;
            });
          },
          { policy: OUTCOME_RETRY, signal: leaseLost },
        );
        if (!finished) return "lease_lost";
        if (out?.afterCommit) await out.afterCommit().catch((err: unknown) => this.o.logger.warn({ code: "after_commit_failed", pool: row.pool, kind: row.kind, err: (err as Error).message }, "tidying after a job's commit failed"));
      } catch (err) {
        if (isRefusal(err)) return this.#outcomes.refuse(row, token, "before_persist", err.code, err);
        return this.#outcomes.fail(row, token, err);
      }
      return "succeeded";
    });
  }
}

/**
 * submitJob: what a submission route (HTTP or MCP) calls. It checks the kind
 * and its parameters, runs the same authorize() as the API boundary (with the
 * kind's repository permission), writes one job row carrying the identity and
 * the principal's ids — never a credential — and dispatches its id.
 *
 * Submissions made at the same moment go out together (core/coalescer.ts):
 * their authorize() checks read by one statement (core/authorize.ts; each
 * request gets exactly what authorize() would have said, from a read sent
 * after it was made — or, for a submission an API request makes, from that
 * request's own boundary read while it is fresh; the claim and the recheck
 * before persisting read again), one multi-row INSERT of the
 * authorized ones (atomic: all of the batch's rows or none), then one dispatch.
 * A refused request gets its own error and writes nothing; the others in its
 * batch are not affected. A batch whose statement fails as a whole with a
 * non-transient error (a NUL byte one request brought) is sent again request
 * by request, so only that request fails (the INSERT is one statement: the
 * failed batch wrote nothing). A lone submission is sent at once.
 *
 * With `tx`, the row is written in the caller's transaction (the same check,
 * alone) and not dispatched here (the caller has not committed yet): the
 * PostgreSQL wake-up fires on commit, and the reconciler hands it to BullMQ on
 * its next pass. Without `tx`, the insert commits on its own and the dispatcher
 * wakes the pools after that commit (BullMQ message, or one coalesced NOTIFY
 * per pool); submitJob returns at the commit, without waiting for that wake-up
 * (a lost one is the reconciler's, as after a crash).
 *
 * With an idempotency key (queues/idempotency.ts) the flush claims the keys and
 * inserts the jobs of the keys it won in one transaction; a key already held
 * answers with its job (`replayed`) or `idempotency_key_reused`.
 */
import { authorizeAll, type AuthorizeRequest, type Authorized, type EarlierRead, type Principal } from "../core/authorize";
import type { IdentityStore } from "../core/identity-store";
import type { Clock } from "../core/clock";
import { PipelinedCoalescer } from "../core/coalescer";
import { AppError } from "../core/errors";
import { sameIdentity, type Identity } from "../core/execution/identity";
import type { Logger } from "../core/log";
import type { Db, Tx } from "../db/schema";
import type { Dispatcher } from "./dispatch/dispatcher";
import { repoRequired, type JobKind, type JobRow } from "./jobs";
import type { JobRegistry } from "./registry";
import { claimKeys, claimSlot, findKeys, keyHash, requestHash, type KeyClaim } from "./idempotency";
import { enqueueJobs, newJobId, type NewJob } from "./sql/enqueueJob";
import { inSubmitSpan } from "./trace-context";
import { inTransaction } from "../core/transaction";
import { admit, capsApply, queuedLimitError, type QueuedCaps, type QueuedLimit } from "./caps";
import { countQueued } from "./sql/countQueued";
import { jobsById } from "./sql/jobsById";

export interface JobQueue {
  db: Db;
  /** The identity store over a handle — the root one, or the caller's transaction (main/ wires db/sql/identity/). */
  identity: (db: Db) => IdentityStore;
  clock: Clock;
  registry: JobRegistry;
  dispatcher: Dispatcher;
  logger?: Logger;
  /** Caps on queued jobs per organisation / session and pool (./caps.ts); absent: none. */
  caps?: QueuedCaps;
  /** Told of each submission a cap refused (the metrics count them by pool and limit). */
  onLimit?: (pool: string, limit: QueuedLimit) => void;
}

export interface SubmitInput {
  kind: string;
  params: unknown;
  /** Repository id or name within the organisation (RUN-7); required when the kind needs a repository level. */
  repo?: string;
  /** A client's idempotency key, already checked by parseIdempotencyKey (queues/idempotency.ts). */
  idempotencyKey?: string;
}

export interface SubmitOptions {
  /** Write the row in this transaction (not dispatched here: see above). */
  tx?: Tx;
  /** A follow-up's chain: the job that began it (workers/pools/child-job.ts; the parent's view lists it). */
  originJobId?: string;
  /** The request's own authorization read (its boundary's): the submission's check uses it while fresh (core/authorize.ts). */
  earlier?: EarlierRead | undefined;
}

/** The job, and whether an earlier submission with the same idempotency key created it. */
export interface SubmitOutcome {
  row: JobRow;
  replayed: boolean;
}

/** One validated request: the kind's own check has passed, authorization has not run yet. */
interface Submission {
  def: JobKind;
  params: unknown;
  identity: Identity;
  principal: Principal;
  repo: string | undefined;
  /** The submitting span (taken in the caller's context: the batch is written from another one). */
  traceparent: string | null;
  keyHash: string | undefined;
  originJobId: string | undefined;
  earlier: EarlierRead | undefined;
}

/** The row, and the dispatch that follows its commit (resolved or logged, never thrown). */
type Submitted = { row: JobRow; dispatched: Promise<void>; replayed?: boolean } | AppError;

/** One batcher per queue, made on first use: every JobQueue batches, however it was built. */
const batchers = new WeakMap<JobQueue, PipelinedCoalescer<Submission, Checks, Submitted>>();

export async function submitJob(
  q: JobQueue,
  identity: Identity,
  principal: Principal,
  input: SubmitInput,
  opts: SubmitOptions = {},
): Promise<JobRow> {
  return (await submitJobOnce(q, identity, principal, input, opts)).row;
}

/** submitJob, telling a new job from one an earlier submission with the same idempotency key created. */
export async function submitJobOnce(
  q: JobQueue,
  identity: Identity,
  principal: Principal,
  input: SubmitInput,
  opts: SubmitOptions = {},
): Promise<SubmitOutcome> {
  const def: JobKind | undefined = q.registry.get(input.kind);
  if (!def || def.system) throw new AppError("validation_failed", { message: "Unknown job kind.", details: { field: "kind" } });
  const parsed = def.params.safeParse(input.params ?? {});
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(params)"))].slice(0, 20);
    throw new AppError("validation_failed", { message: `The job parameters are not valid: ${fields.join(", ")}.`, details: { field: "params" } });
  }
  if (def.repoLevel && !input.repo) throw repoRequired();
  // The row stores this submission span's traceparent: the worker's run continues the trace (trace-context.ts).
  return inSubmitSpan(def.kind, identity.tenant_id, async (traceparent) => {
    const submission: Submission = {
      def,
      params: parsed.data,
      identity,
      principal,
      repo: input.repo,
      traceparent,
      keyHash: input.idempotencyKey === undefined ? undefined : keyHash(input.idempotencyKey),
      originJobId: opts.originJobId,
      earlier: opts.earlier,
    };
    const [out] = opts.tx ? await insertAuthorized(q, opts.tx, [submission]) : [await batcher(q).run(submission)];
    if (out instanceof AppError) throw out;
    // Not waited for: the row is committed (the truth); the wake-up goes out right after the commit
    // while the next flush runs, and a lost one is the reconciler's (it logs its own failure).
    void out!.dispatched;
    return { row: out!.row, replayed: out!.replayed === true };
  });
}

/**
 * The per-queue batcher: the authorize read of one batch runs while the previous batches are
 * inserted (core/coalescer.ts PipelinedCoalescer) — each submission still authorized by a
 * read sent after it was made and before its row is written. INSERT_WRITERS inserts may be in
 * flight at once: each ends in a commit that waits for the log flush, and a second one joins
 * that flush instead of waiting behind it (as concurrent API processes' inserts would).
 */
const INSERT_WRITERS = 2;

function batcher(q: JobQueue): PipelinedCoalescer<Submission, Checks, Submitted> {
  let b = batchers.get(q);
  if (!b) {
    const write = (items: Submission[], checks: Checks) =>
      items.some((s) => capsApply(q.caps, s.def.pool)) ? inCapTurn(q, () => insertChecked(q, undefined, items, checks)) : insertChecked(q, undefined, items, checks);
    b = new PipelinedCoalescer((items) => authorizeSubmissions(q, q.db, items), write, { writers: INSERT_WRITERS });
    batchers.set(q, b);
  }
  return b;
}

/**
 * A flush that a cap applies to counts the queued rows and inserts its own after that count:
 * two such flushes of one process run one after the other, so each counts the other's rows
 * (./caps.ts: the caps hold within a process). Flushes no cap applies to do not wait.
 */
const capTurns = new WeakMap<JobQueue, Promise<unknown>>();

function inCapTurn<T>(q: JobQueue, fn: () => Promise<T>): Promise<T> {
  const turn = (capTurns.get(q) ?? Promise.resolve()).then(fn);
  capTurns.set(q, turn.catch(() => undefined));
  return turn;
}

/** Each submission's authorize() answer, or the refusal it threw. */
type Checks = Array<Authorized | AppError>;

/**
 * authorize() for every submission (one statement), then one INSERT of the
 * authorized ones. Inside `tx`: the caller's transaction, wake-up on its commit.
 * Without: dispatched once the insert has committed.
 */
async function insertAuthorized(q: JobQueue, tx: Tx | undefined, items: readonly Submission[]): Promise<Submitted[]> {
  return insertChecked(q, tx, items, await authorizeSubmissions(q, tx ?? q.db, items));
}

/** The read step: authorize() for every submission, read together (core/authorize.ts); a refusal is that submission's answer. */
async function authorizeSubmissions(q: JobQueue, db: Db | Tx, items: readonly Submission[]): Promise<Checks> {
  const checks = authorizeAll(
    q.identity(db),
    q.clock,
    items.map((s): AuthorizeRequest => ({
      principal: s.principal,
      sessionId: s.identity.session_id,
      ...(s.def.repoLevel && s.repo ? { repo: { ref: s.repo, level: s.def.repoLevel } } : {}),
      earlier: s.earlier,
    })),
  );
  const settled = await Promise.allSettled(checks);
  return settled.map((r) => {
    if (r.status === "fulfilled") return r.value;
    if (r.reason instanceof AppError) return r.reason;
    throw r.reason;
  });
}

/** The write step: the caps, then one INSERT of the authorized submissions (with their keys, in one transaction). */
async function insertChecked(q: JobQueue, tx: Tx | undefined, items: readonly Submission[], checks: Checks): Promise<Submitted[]> {
  const db = tx ?? q.db;
  const out: Array<Submitted | undefined> = checks.map((c, k) =>
    c instanceof AppError ? c : sameIdentity(c.identity, items[k]!.identity) ? undefined : new AppError("invalid_identity"),
  );
  await refuseOverCaps(q, db, items, out);
  const now = q.clock.now();
  const wanted: Array<{ k: number; job: NewJob & { id: string } }> = [];
  checks.forEach((c, k) => {
    if (out[k] || c instanceof AppError) return;
    const s = items[k]!;
    wanted.push({
      k,
      job: {
        id: newJobId(),
        kind: s.def.kind,
        pool: s.def.pool,
        params: s.params,
        repoId: c.repo?.repoId ?? null,
        restartable: s.def.restartable,
        maxAttempts: s.def.maxAttempts,
        identity: c.identity,
        actor: { userId: s.principal.userId, apiKeyId: s.principal.apiKeyId, loginSessionId: s.principal.loginSessionId },
        dispatched: !tx,
        traceparent: s.traceparent,
        originJobId: s.originJobId ?? null,
      },
    });
  });
  const claims = keyClaims(items, wanted);
  if (claims.size === 0) {
    const rows = await enqueueJobs(db, now, wanted.map((w) => w.job), { notify: !!tx });
    settle(q, tx, now, out, wanted, rows);
    return out as Submitted[];
  }
  // Keys claimed and jobs inserted together: a job exists exactly when its key was won. The first
  // submission of a key in this flush claims it; the others read it below, like a later retry.
  const firstOf = new Map<string, number>();
  for (const [k, c] of claims) if (!firstOf.has(claimSlot(c))) firstOf.set(claimSlot(c), k);
  const attempted = await inTransaction(db, async (t) => {
    const won = await claimKeys(t, now, [...firstOf.values()].map((k) => claims.get(k)!));
    const insert = wanted.filter(({ k }) => {
      const c = claims.get(k);
      return !c || (firstOf.get(claimSlot(c)) === k && won.has(claimSlot(c)));
    });
    return { insert, rows: await enqueueJobs(t, now, insert.map((w) => w.job), { notify: !!tx }) };
  });
  settle(q, tx, now, out, attempted.insert, attempted.rows);
  // Keys held by an earlier submission (or by the first of this flush): the job it made, if the request is the same.
  const held = [...claims].filter(([k]) => out[k] === undefined);
  const found = await findKeys(db, now, held.map(([, c]) => c));
  const jobs = new Map((await jobsById(db, [...new Set([...found.values()].map((f) => f.jobId))])).map((r) => [r.id, r]));
  for (const [k, c] of held) {
    const f = found.get(claimSlot(c));
    const row = f ? jobs.get(f.jobId) : undefined;
    if (f && f.requestHash !== c.requestHash) out[k] = new AppError("idempotency_key_reused");
    else if (row) out[k] = { row, dispatched: Promise.resolve(), replayed: true };
    else out[k] = new AppError("conflict"); // the holder vanished in between (expired and purged): the client retries
  }
  return out as Submitted[];
}

/** The queued caps (./caps.ts): one count of the flush's organisations' queued rows, then the pure rule; only when a cap applies. */
async function refuseOverCaps(q: JobQueue, db: Db | Tx, items: readonly Submission[], out: Array<Submitted | undefined>): Promise<void> {
  const idx = items.flatMap((s, k) => (out[k] === undefined && capsApply(q.caps, s.def.pool) ? [k] : []));
  if (idx.length === 0) return;
  const reqs = idx.map((k) => ({ pool: items[k]!.def.pool, org: items[k]!.identity.tenant_id, session: items[k]!.identity.session_id }));
  const counts = await countQueued(db, [...new Set(reqs.map((r) => r.pool))], [...new Set(reqs.map((r) => r.org))]);
  admit(q.caps!, counts, reqs).forEach((v, j) => {
    if (!v) return;
    out[idx[j]!] = queuedLimitError(reqs[j]!.pool, v.limit, v.max);
    q.onLimit?.(reqs[j]!.pool, v.limit);
  });
}

/** The key claim of every authorized submission that carries a key, by its index in the flush. */
function keyClaims(items: readonly Submission[], wanted: ReadonlyArray<{ k: number; job: NewJob & { id: string } }>): Map<number, KeyClaim> {
  const claims = new Map<number, KeyClaim>();
  for (const { k, job } of wanted) {
    const hash = items[k]!.keyHash;
    if (hash === undefined || !job.identity) continue;
    claims.set(k, { identity: job.identity, keyHash: hash, requestHash: requestHash(job.kind, job.repoId ?? null, items[k]!.params), jobId: job.id });
  }
  return claims;
}

/** Answers the inserted submissions (a row missing from `rows` was refused by a unique rule) and dispatches them. */
function settle(q: JobQueue, tx: Tx | undefined, now: Date, out: Array<Submitted | undefined>, wanted: ReadonlyArray<{ k: number; job: { id: string } }>, rows: JobRow[]): void {
  const dispatched = tx || rows.length === 0 ? Promise.resolve() : dispatch(q, rows, now);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const { k, job } of wanted) {
    const row = byId.get(job.id);
    out[k] = row ? { row, dispatched } : new AppError("conflict");
  }
}

async function dispatch(q: JobQueue, rows: JobRow[], now: Date): Promise<void> {
  try {
    await q.dispatcher.dispatch(rows, now);
  } catch (err) {
    // The rows are durable; the reconciler dispatches them again.
    for (const pool of new Set(rows.map((r) => r.pool))) {
      q.logger?.warn({ code: "dispatch_failed", pool, err: (err as Error).message }, "dispatch failed; reconciler will retry");
    }
  }
}

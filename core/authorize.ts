/**
 * The authorization gateway: identity and repository permission, resolved by ONE statement
 * (one query text, IdentityStore.readAuthorization: db/sql/identity/authorize-read.ts) and decided
 * by one pure function (core/authorize-rules.ts, one refusal order). The HTTP middleware, the MCP
 * endpoint, submission, the job claim and the rechecks before work and before persisting all come
 * here — no cache, every check reads the current rows (REG-7, JOB-6), and a refusal is thrown here,
 * where it is decided. Two things live inside, not with the callers:
 * - batching: every read of one identity store goes through one coalescer (core/coalescer.ts), so
 *   the checks made while a read is in flight (requests, submissions, jobs starting or finishing
 *   together) share the next statement — each still read by a statement that started after it
 *   was asked;
 * - an earlier read: the claim reads the rows of the identities it claims in its own statement
 *   (queues/sql/claimJobs.ts), and a request's boundary read is handed to its operation (a job
 *   submission); a check handed such a read while it is at most EARLIER_READ_FRESH_MS old, and
 *   read for the same session, repository and credential, applies the rules to it instead of
 *   reading again.
 */
import { AppError } from "./errors";
import { identityRefusal } from "./errors-identity";
import { isValidId, makeIdentity, type Identity } from "./execution/identity";
import { Coalescer } from "./coalescer";
import { decide, type AuthQuery, type AuthRow, type Caller } from "./authorize-rules";
import { tombstoneExpired, type Principal } from "./registry/registry";
import type { Clock } from "./clock";
import type { IdentityStore, RepoLevel } from "./identity-store";

export { levelAtLeast, type AuthQuery, type AuthRow, type Caller, type Credential } from "./authorize-rules";
export type { Principal };

export interface Authorized {
  identity: Identity;
  /** The binding's fixed deadline (memory expiry follows it, RET-1). */
  expiresAt: Date;
  repo?: RepoAccess;
}

export interface RepoAccess {
  repoId: string;
  repoName: string;
  orgId: string;
  level: RepoLevel;
}


/** What a resolved query grants: the caller, and the identity when a session was asked for. */
export interface Resolution {
  caller: Caller;
  authorized?: Authorized;
  /**
   * With `deferRepo`: the repository's answer, kept for the step that needs it (after input
   * validation), while the identity stands. Decided by the same rules over the same row.
   */
  repoAnswer?: RepoAccess | AppError;
  /** The read it was decided on, for a later check of the same caller (an earlier read). */
  read?: EarlierRead;
}

function refusal(d: Extract<ReturnType<typeof decide>, { ok: false }>): AppError {
  if (d.cause) return identityRefusal(d.cause, d.details);
  return new AppError(d.code, d.details ? { details: d.details } : {});
}

/**
 * The rules over a row read for `q`; an expiry observed here is tombstoned at once. Throws the
 * refusal. `deferRepo`: a refusal of the repository (the last rule) does not throw, it is the
 * resolution's `repoAnswer`.
 */
async function resolveRow(store: IdentityStore, clock: Clock, q: AuthQuery, row: AuthRow | undefined, o: { deferRepo?: boolean } = {}): Promise<Resolution> {
  const now = clock.now();
  const deferred = o.deferRepo === true && q.repo !== undefined;
  const d = decide(deferred ? { ...q, repo: undefined } : q, row, now);
  if (!d.ok) {
    if (d.tombstone && q.sessionId !== undefined) await tombstoneExpired(store, clock, q.sessionId);
    throw refusal(d);
  }
  let repoAnswer: RepoAccess | AppError | undefined;
  if (deferred) {
    const full = decide(q, row, now);
    repoAnswer = full.ok ? full.repo! : refusal(full);
  }
  if (q.sessionId === undefined || !d.binding) return { caller: d.caller, ...(repoAnswer ? { repoAnswer } : {}) };
  const identity = makeIdentity({ tenant_id: d.caller.orgId, subject_id: d.caller.userId, session_id: q.sessionId, parent_session_id: q.sessionId });
  const authorized: Authorized = { identity, expiresAt: d.binding.expiresAt };
  if (d.repo) authorized.repo = d.repo;
  return { caller: d.caller, authorized, ...(repoAnswer ? { repoAnswer } : {}) };
}

/** A read of a query's row made earlier, and when its answer came (performance.now()): the claim's, or a request's at its boundary. */
export interface EarlierRead {
  row: AuthRow | undefined;
  at: number;
  /** What it was read for: the session, and the repository it named (none: it read no repository). */
  of: { sessionId: string | undefined; repoRef: string | undefined };
}

/**
 * An earlier read stands in for a new one when it is fresh and was read for this query: the same
 * session, the repository the query names (a read that named none has no repository row), and —
 * for a recorded principal — the same key or sign-in.
 */
function usable(q: AuthQuery, e: EarlierRead | undefined): e is EarlierRead {
  if (!e || performance.now() - e.at > EARLIER_READ_FRESH_MS) return false;
  if (e.of.sessionId !== q.sessionId || (q.repo !== undefined && e.of.repoRef !== q.repo.ref)) return false;
  const c = q.credential;
  if (c.kind !== "principal" || !e.row) return true;
  return c.apiKeyId !== null ? e.row.key_id === c.apiKeyId : e.row.login_id === c.loginSessionId;
}

/** An earlier read is used instead of a new one while at most this old (a job that waited longer for a handler slot reads again). */
export const EARLIER_READ_FRESH_MS = 50;

/** The reads of each identity store: one coalescer per store, shared by every check made on it. */
const readers = new WeakMap<IdentityStore, Coalescer<AuthQuery, AuthRow | undefined>>();

function readerOf(store: IdentityStore): Coalescer<AuthQuery, AuthRow | undefined> {
  let r = readers.get(store);
  if (!r) {
    r = new Coalescer((queries) => store.readAuthorization(queries));
    readers.set(store, r);
  }
  return r;
}

/**
 * Each query's row: its earlier read's when it has one (already checked usable), else read
 * together with the others'. A malformed session ID is refused by the first rule, so it is not read.
 */
function rowsOf(store: IdentityStore, queries: readonly AuthQuery[], earlier: ReadonlyArray<EarlierRead | undefined>): Array<Promise<AuthRow | undefined>> {
  const toRead = queries.filter((q, i) => !earlier[i] && wellFormed(q));
  const read = toRead.length > 0 ? readerOf(store).runAll(toRead) : [];
  let k = 0;
  return queries.map((q, i) => {
    const e = earlier[i];
    if (e) return Promise.resolve(e.row);
    return wellFormed(q) ? read[k++]! : Promise.resolve(undefined);
  });
}

const wellFormed = (q: AuthQuery): boolean => q.sessionId === undefined || isValidId(q.sessionId);

/** One query: read (or take the fresh earlier read) and decide. Throws the refusal. */
export async function resolveQuery(store: IdentityStore, clock: Clock, q: AuthQuery, o: { deferRepo?: boolean; earlier?: EarlierRead | undefined } = {}): Promise<Resolution> {
  const earlier = usable(q, o.earlier) ? o.earlier : undefined;
  const row = await rowsOf(store, [q], [earlier])[0]!;
  const r = await resolveRow(store, clock, q, row, o);
  r.read = earlier ?? { row, at: performance.now(), of: { sessionId: q.sessionId, repoRef: q.repo?.ref } };
  return r;
}

export interface AuthorizeRequest {
  principal: Principal;
  sessionId: string;
  repo?: { ref: string; level: RepoLevel };
  /** A read made earlier for this caller (the request's own, at its boundary): used while fresh. */
  earlier?: EarlierRead | undefined;
}

function principalQuery(req: AuthorizeRequest): AuthQuery {
  const p = req.principal;
  return {
    credential: { kind: "principal", orgId: p.orgId, userId: p.userId, apiKeyId: p.apiKeyId, loginSessionId: p.loginSessionId },
    sessionId: req.sessionId,
    repo: req.repo,
  };
}

/** authorize() for a known principal (the API after authentication, the MCP tools, the workers). Throws the refusal. */
export async function authorize(
  store: IdentityStore,
  clock: Clock,
  p: Principal,
  sessionId: string,
  opts: { repo?: { ref: string; level: RepoLevel } | undefined; earlier?: EarlierRead | undefined } = {},
): Promise<Authorized> {
  const req: AuthorizeRequest = { principal: p, sessionId, ...(opts.repo ? { repo: opts.repo } : {}) };
  return (await resolveQuery(store, clock, principalQuery(req), { earlier: opts.earlier })).authorized!;
}

/**
 * authorize() of a session with the repository it names, in one statement: the identity is
 * refused as authorize() refuses it, the repository's answer is returned for later.
 */
export async function authorizeAsking(
  store: IdentityStore,
  clock: Clock,
  p: Principal,
  sessionId: string,
  repo: { ref: string; level: RepoLevel },
): Promise<{ authorized: Authorized; repoAnswer: RepoAccess | AppError }> {
  const r = await resolveQuery(store, clock, principalQuery({ principal: p, sessionId, repo }), { deferRepo: true });
  return { authorized: r.authorized!, repoAnswer: r.repoAnswer! };
}

/**
 * Many authorize() checks asked at once (a batch of submissions): read together, each promise
 * settling exactly as authorize() would have — its answer, or its refusal thrown. In request order.
 */
export function authorizeAll(store: IdentityStore, clock: Clock, reqs: readonly AuthorizeRequest[]): Array<Promise<Authorized>> {
  const queries = reqs.map(principalQuery);
  const rows = rowsOf(store, queries, reqs.map((req, i) => (usable(queries[i]!, req.earlier) ? req.earlier : undefined)));
  return queries.map(async (q, i) => (await resolveRow(store, clock, q, await rows[i]!)).authorized!);
}

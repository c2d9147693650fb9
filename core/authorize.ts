/**
 * authorize(): identity and repository permission, resolved by ONE statement
 * (one query text, IdentityStore.readAuthorization: db/sql/identity/authorize-read.ts)
 * and decided by one pure function (core/authorize-rules.ts, one refusal
 * order). The HTTP middleware, the MCP endpoint, submission, the job claim and
 * the recheck before a job persists all read through that statement and decide
 * through `decide` — no cache, every call rereads the current rows (REG-7, JOB-6).
 * Many queries are read by one statement (authorizeMany); the claim reads the
 * rows it just claimed in its own statement (queues/sql/claimJobs.ts), so the
 * recheck before work costs no extra round trip.
 */
import { AppError } from "./errors";
import { identityRefusal } from "./errors-identity";
import { makeIdentity, type Identity } from "./execution/identity";
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
export async function resolveRow(store: IdentityStore, clock: Clock, q: AuthQuery, row: AuthRow | undefined, o: { deferRepo?: boolean } = {}): Promise<Resolution> {
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

/** One query: read and decide. */
export async function resolveQuery(store: IdentityStore, clock: Clock, q: AuthQuery, o: { deferRepo?: boolean } = {}): Promise<Resolution> {
  const [row] = await store.readAuthorization([q]);
  return resolveRow(store, clock, q, row, o);
}

export interface AuthorizeRequest {
  principal: Principal;
  sessionId: string;
  repo?: { ref: string; level: RepoLevel };
}

function principalQuery(req: AuthorizeRequest): AuthQuery {
  const p = req.principal;
  return {
    credential: { kind: "principal", orgId: p.orgId, userId: p.userId, apiKeyId: p.apiKeyId, loginSessionId: p.loginSessionId },
    sessionId: req.sessionId,
    repo: req.repo,
  };
}

/** authorize() for a known principal (the API after authentication, the MCP tools, the workers). */
export async function authorize(
  store: IdentityStore,
  clock: Clock,
  p: Principal,
  sessionId: string,
  opts: { repo?: { ref: string; level: RepoLevel } } = {},
): Promise<Authorized> {
  const req: AuthorizeRequest = { principal: p, sessionId, ...(opts.repo ? { repo: opts.repo } : {}) };
  return (await resolveQuery(store, clock, principalQuery(req))).authorized!;
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

/** One authorize() answer from a row already read by the authorization read for `req` (the claim's). */
export async function authorizeRow(store: IdentityStore, clock: Clock, req: AuthorizeRequest, row: AuthRow | undefined): Promise<Authorized | AppError> {
  try {
    return (await resolveRow(store, clock, principalQuery(req), row)).authorized!;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return err;
  }
}

/**
 * Many authorize() checks in ONE statement (the runner's rechecks of jobs
 * finishing together, a batch of submissions): each gets exactly what
 * authorize() would have returned or thrown. Results are in request order.
 */
export async function authorizeMany(store: IdentityStore, clock: Clock, reqs: readonly AuthorizeRequest[]): Promise<Array<Authorized | AppError>> {
  const rows = await store.readAuthorization(reqs.map(principalQuery));
  return Promise.all(reqs.map((req, i) => authorizeRow(store, clock, req, rows[i])));
}


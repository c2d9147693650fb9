/**
 * authorize(): identity and repository permission, resolved by ONE statement
 * (one query text) and decided by one pure function (core/authorize-rules.ts,
 * one refusal order). The HTTP middleware, the MCP endpoint, submission, the
 * job claim and the recheck before a job persists all read through
 * AUTHORIZE_READ and decide through `decide` — no cache, every call rereads
 * the current rows (REG-7, JOB-6).
 *
 * The statement reads a relation `q` of queries, one row each:
 *   q(i, session_id, org_id, user_id, api_key_id, key_prefix, login_session_id, login_token_hash, repo_ref)
 * A presented API key fills key_prefix (its hash is compared in memory), a
 * browser cookie fills login_token_hash (and org_id from its header), a
 * recorded principal (a job row) fills org_id, user_id and its credential's id.
 * authorizeQueries builds `q` from a VALUES list; the claim builds it from the
 * rows it just claimed (queues/sql/claimJobs.ts), so the recheck before work
 * costs no extra round trip.
 */
import { sql } from "kysely";
import { AppError } from "./errors";
import { identityRefusal } from "./errors-identity";
import { makeIdentity, type Identity } from "./execution/identity";
import { isSafeId } from "./boundary";
import { MAX_ID_CHARS } from "./limits";
import { decide, type AuthQuery, type AuthRow, type Caller } from "./authorize-rules";
import type { Principal } from "./registry/registry";
import type { Clock } from "./clock";
import { PREPARE } from "./prepare";
import type { Db, RepoLevel, Tx } from "../db/schema";

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

/** The columns of `q`, in order. */
export const AUTHORIZE_INPUT = ["i", "session_id", "org_id", "user_id", "api_key_id", "key_prefix", "login_session_id", "login_token_hash", "repo_ref"] as const;

/** The columns the statement yields per query (besides q.i), in AuthRow's names. */
export const AUTHORIZE_COLUMNS = [
  "key_id", "key_hash", "key_org_id", "key_user_id", "key_revoked_at",
  "login_id", "login_user_id", "login_revoked_at", "login_expires_at",
  "user_id", "user_email", "user_is_platform_admin", "user_suspended_at",
  "org_id", "org_name", "org_suspended_at", "membership_role", "membership_suspended_at", "memberships",
  "binding_org_id", "binding_user_id", "binding_expires_at", "binding_tombstone_reason", "binding_tombstoned_at", "binding_kind", "binding_login_session_id",
  "repo_id", "repo_name", "repo_org_id", "repo_level",
] as const satisfies ReadonlyArray<keyof AuthRow>;

/**
 * THE authorization read, over a relation `q` (AUTHORIZE_INPUT) in scope.
 * The organisation asked for is the key's, else q.org_id (a recorded tenant
 * or a browser's header), else a browser's memberships decide (the rules
 * refuse anything but exactly one).
 */
export const AUTHORIZE_READ = sql`select q.i,
       k.id as key_id, k.key_hash, k.org_id as key_org_id, k.user_id as key_user_id, k.revoked_at as key_revoked_at,
       ls.id as login_id, ls.user_id as login_user_id, ls.revoked_at as login_revoked_at, ls.expires_at as login_expires_at,
       u.id as user_id, u.email as user_email, u.is_platform_admin as user_is_platform_admin, u.suspended_at as user_suspended_at,
       o.id as org_id, o.name as org_name, o.suspended_at as org_suspended_at,
       m.role as membership_role, m.suspended_at as membership_suspended_at, m.n as memberships,
       b.org_id as binding_org_id, b.user_id as binding_user_id, b.expires_at as binding_expires_at,
       b.tombstone_reason as binding_tombstone_reason, b.tombstoned_at as binding_tombstoned_at,
       b.kind as binding_kind, b.login_session_id as binding_login_session_id,
       rr.id as repo_id, rr.name as repo_name, rr.org_id as repo_org_id, rr.level as repo_level
  from q
  left join api_keys k on k.id = q.api_key_id or k.prefix = q.key_prefix
  left join login_sessions ls on ls.id = q.login_session_id or ls.token_hash = q.login_token_hash
  left join users u on u.id = coalesce(k.user_id, ls.user_id, q.user_id)
  left join lateral (
    select m.org_id, m.role, m.suspended_at, count(*) over () as n
      from memberships m
     where m.user_id = u.id and m.org_id = coalesce(k.org_id, q.org_id, m.org_id)
     order by m.org_id
     limit 1
  ) m on true
  left join organizations o on o.id = coalesce(k.org_id, q.org_id, m.org_id)
  left join session_bindings b on b.session_id = q.session_id
  left join lateral (
    select r.id, r.name, r.org_id, rp.level from repositories r
      left join repo_permissions rp on rp.repo_id = r.id and rp.user_id = u.id
     where q.repo_ref is not null and r.org_id = o.id and (r.id = q.repo_ref or r.name = q.repo_ref)
     order by case when r.id = q.repo_ref then 0 else 1 end
     limit 1
  ) rr on true`;

/** The `q` values of one query (the presented key's hash never leaves memory: only its prefix is sent). */
export function queryInput(q: AuthQuery): [string | null, string | null, string | null, string | null, string | null, string | null, string | null, string | null] {
  const c = q.credential;
  const repoRef = q.repo && validRepoRef(q.repo.ref) ? q.repo.ref : null;
  const session = q.sessionId ?? null;
  switch (c.kind) {
    case "api_key":
      return [session, null, null, null, c.prefix, null, null, repoRef];
    case "browser":
      return [session, c.orgId ?? null, null, null, null, null, c.tokenHash, repoRef];
    case "principal":
      return [session, c.orgId, c.userId, c.apiKeyId, null, c.loginSessionId, null, repoRef];
  }
}

const NULL_TEXT = sql`null::text`;

/**
 * One `q` value as the statement takes it. For a single query an absent value is written as a
 * NULL literal, not sent as a parameter: the statement is prepared (named) and the planner then
 * prunes the joins that value switches off (a key's lookup by id, the sign-in joins, the
 * repository) in the generic plan too. With every value a parameter, the generic plan covered all
 * credential kinds at once, cost more than each custom plan, and PostgreSQL planned the statement
 * again on every call (0.7 ms of planning for 0.2 ms of execution). The texts stay few — one per
 * pattern of absent values (at most 2^8), as a prepared statement per text must be. A batch keeps
 * every value a parameter (its texts would multiply with the patterns of its rows).
 */
function qValue(v: string | null, literalNull: boolean) {
  return v === null && literalNull ? NULL_TEXT : sql`${v}::text`;
}

/** Reads the rows of many queries in one statement; rows in query order (undefined: none). */
export async function readAuthorization(db: Db | Tx, queries: readonly AuthQuery[]): Promise<Array<AuthRow | undefined>> {
  if (queries.length === 0) return [];
  const single = queries.length === 1;
  const values = sql.join(
    queries.map((q, i) => {
      const row = [String(i), ...queryInput(q)].map((v) => qValue(v, single));
      return sql`(${sql.join(row)})`;
    }),
  );
  const r = await sql<AuthRow & { i: string }>`${PREPARE}
    with q(${sql.join(AUTHORIZE_INPUT.map((c) => sql.ref(c)))}) as (values ${values})
    ${AUTHORIZE_READ}`.execute(db);
  const byIndex = new Map(r.rows.map((row) => [Number(row.i), row]));
  return queries.map((_, i) => byIndex.get(i));
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
export async function resolveRow(db: Db | Tx, clock: Clock, q: AuthQuery, row: AuthRow | undefined, o: { deferRepo?: boolean } = {}): Promise<Resolution> {
  const now = clock.now();
  const deferred = o.deferRepo === true && q.repo !== undefined;
  const d = decide(deferred ? { ...q, repo: undefined } : q, row, now);
  if (!d.ok) {
    if (d.tombstone && q.sessionId !== undefined) {
      await db
        .updateTable("session_bindings")
        .set({ tombstoned_at: now, tombstone_reason: "expired" })
        .where("session_id", "=", q.sessionId)
        .where("tombstoned_at", "is", null)
        .where("expires_at", "<=", now)
        .execute();
    }
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
export async function resolveQuery(db: Db | Tx, clock: Clock, q: AuthQuery, o: { deferRepo?: boolean } = {}): Promise<Resolution> {
  const [row] = await readAuthorization(db, [q]);
  return resolveRow(db, clock, q, row, o);
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
  db: Db | Tx,
  clock: Clock,
  p: Principal,
  sessionId: string,
  opts: { repo?: { ref: string; level: RepoLevel } } = {},
): Promise<Authorized> {
  const req: AuthorizeRequest = { principal: p, sessionId, ...(opts.repo ? { repo: opts.repo } : {}) };
  return (await resolveQuery(db, clock, principalQuery(req))).authorized!;
}

/**
 * authorize() of a session with the repository it names, in one statement: the identity is
 * refused as authorize() refuses it, the repository's answer is returned for later.
 */
export async function authorizeAsking(
  db: Db | Tx,
  clock: Clock,
  p: Principal,
  sessionId: string,
  repo: { ref: string; level: RepoLevel },
): Promise<{ authorized: Authorized; repoAnswer: RepoAccess | AppError }> {
  const r = await resolveQuery(db, clock, principalQuery({ principal: p, sessionId, repo }), { deferRepo: true });
  return { authorized: r.authorized!, repoAnswer: r.repoAnswer! };
}

/** One authorize() answer from a row already read by AUTHORIZE_READ for `req` (the claim's). */
export async function authorizeRow(db: Db | Tx, clock: Clock, req: AuthorizeRequest, row: AuthRow | undefined): Promise<Authorized | AppError> {
  try {
    return (await resolveRow(db, clock, principalQuery(req), row)).authorized!;
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
export async function authorizeMany(db: Db | Tx, clock: Clock, reqs: readonly AuthorizeRequest[]): Promise<Array<Authorized | AppError>> {
  const rows = await readAuthorization(db, reqs.map(principalQuery));
  return Promise.all(reqs.map((req, i) => authorizeRow(db, clock, req, rows[i])));
}

/** The boundary rule (core/boundary.ts) again, for callers that reach here without a schema. */
function validRepoRef(ref: unknown): ref is string {
  return typeof ref === "string" && ref.length >= 1 && ref.length <= MAX_ID_CHARS && isSafeId(ref);
}

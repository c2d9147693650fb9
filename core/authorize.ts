/**
 * authorize(): the one check that the HTTP middleware, the MCP tools and the
 * job runner all run (REG-7, JOB-6). From a principal (org, user, API key or
 * browser sign-in) and a primary session ID it rereads, in one statement, the
 * binding and every account row it depends on — no cache — and returns the
 * frozen Identity. A repository check is separate (`authorizeRepo`); when
 * asked, `authorize` reads the repository in that same statement and applies
 * the same rules (`checkRepo`) after all the others.
 */
import { sql } from "kysely";
import { AppError } from "./errors";
import { assertAccountActive, type BindingState } from "./auth/authenticate";
import { makeIdentity, isValidId, type Identity } from "./execution/identity";
import { isSafeId } from "./boundary";
import { MAX_ID_CHARS } from "./limits";
import { tombstoneExpired, type Principal } from "./registry/registry";
import type { Clock } from "./clock";
import { PREPARE } from "../db/database";
import type { Db, RepoLevel, Tx } from "../db/schema";

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

const LEVEL_RANK: Record<RepoLevel, number> = { read: 1, write: 2, admin: 3 };

export function levelAtLeast(have: RepoLevel, need: RepoLevel): boolean {
  return LEVEL_RANK[have] >= LEVEL_RANK[need];
}

export async function authorize(
  db: Db | Tx,
  clock: Clock,
  p: Principal,
  sessionId: string,
  opts: { repo?: { ref: string; level: RepoLevel } } = {},
): Promise<Authorized> {
  if (!isValidId(sessionId)) throw new AppError("invalid_session_header");
  // The repository (when asked) is read by the same statement, through a lateral join running
  // authorizeRepo's own lookup; its rules are applied below by checkRepo, after every other check.
  const ref = opts.repo && validRepoRef(opts.repo.ref) ? opts.repo.ref : undefined;
  const row = await db
    .selectFrom("session_bindings as b")
    .leftJoin("users as u", (j) => j.on("u.id", "=", p.userId))
    .leftJoin("organizations as o", (j) => j.on("o.id", "=", p.orgId))
    .leftJoin("memberships as m", (j) => j.on("m.org_id", "=", p.orgId).on("m.user_id", "=", p.userId))
    .leftJoin("api_keys as k", (j) => j.on("k.id", "=", p.apiKeyId ?? ""))
    .leftJoin("login_sessions as ls", (j) => j.on("ls.id", "=", p.loginSessionId ?? ""))
    .leftJoinLateral(
      // Without a repository to check, `where false` makes this an empty join the planner drops.
      () => repoLookup(db, { orgId: p.orgId, userId: p.userId }, ref ?? "").where(sql<boolean>`${ref !== undefined}`).as("rr"),
      (j) => j.onTrue(),
    )
    .select([
      "b.org_id",
      "b.user_id",
      "b.expires_at",
      "b.tombstone_reason",
      "b.tombstoned_at",
      "b.kind as binding_kind",
      "b.login_session_id as binding_login_session_id",
      "u.suspended_at as user_suspended_at",
      "o.suspended_at as org_suspended_at",
      "m.role as membership_role",
      "m.suspended_at as membership_suspended_at",
      "k.revoked_at as key_revoked_at",
      "k.user_id as key_user_id",
      "ls.revoked_at as login_revoked_at",
      "ls.expires_at as login_expires_at",
      "ls.user_id as login_user_id",
      "rr.id as repo_id",
      "rr.name as repo_name",
      "rr.org_id as repo_org_id",
      "rr.level as repo_level",
    ])
    .where("b.session_id", "=", sessionId)
    .modifyEnd(PREPARE)
    .executeTakeFirst();
  if (!row) throw new AppError("session_not_found");
  return applyRules(db, clock, p, sessionId, row, opts.repo && { level: opts.repo.level, looked: ref !== undefined });
}

/** What authorize's statement reads for one request (binding, accounts, repository). */
export interface AuthorizeRow extends BindingState {
  /** The binding's kind and, for a dashboard binding, the browser sign-in it was derived from (HTTP-3). */
  binding_kind: string | null;
  binding_login_session_id: string | null;
  user_suspended_at: Date | null;
  org_suspended_at: Date | null;
  membership_role: string | null;
  membership_suspended_at: Date | null;
  key_revoked_at: Date | null;
  key_user_id: string | null;
  login_revoked_at: Date | null;
  login_expires_at: Date | null;
  login_user_id: string | null;
  repo_id: string | null;
  repo_name: string | null;
  repo_org_id: string | null;
  repo_level: RepoLevel | null;
}

/** The rules, in order, over one read row: binding, credential, account, then the repository. */
async function applyRules(
  db: Db | Tx,
  clock: Clock,
  p: Principal,
  sessionId: string,
  row: AuthorizeRow,
  repo: { level: RepoLevel; looked: boolean } | undefined,
): Promise<Authorized> {
  const { identity, expiresAt } = await checkBinding(db, clock, p, sessionId, row);
  checkDashboard(p, row);
  const now = clock.now();
  if (p.apiKeyId !== null && (row.key_user_id !== p.userId || row.key_revoked_at)) throw new AppError("api_key_revoked");
  if (p.loginSessionId !== null) {
    if (row.login_user_id !== p.userId || row.login_revoked_at || !row.login_expires_at || row.login_expires_at.getTime() <= now.getTime()) {
      throw new AppError("login_session_ended");
    }
  }
  if (p.apiKeyId === null && p.loginSessionId === null) throw new AppError("unauthenticated");
  assertAccountActive(row);

  const result: Authorized = { identity, expiresAt };
  if (repo) {
    const found = repo.looked && row.repo_id !== null ? { id: row.repo_id, name: row.repo_name!, org_id: row.repo_org_id!, level: row.repo_level } : undefined;
    result.repo = checkRepo(found, repo.level);
  }
  return result;
}

/**
 * authorizeMany's read as two fragments, for a statement that already has the
 * requests as a relation `q(session_id, org_id, user_id, api_key_id,
 * login_session_id, repo_ref)` — the job claim reads them from the rows it just
 * claimed (queues/sql/claimJobs.ts), so the recheck before work costs no extra
 * round trip. Each `q` row yields exactly one row of AUTHORIZE_COLUMNS; feed it
 * to authorizeRow() with the request it came from.
 */
export const AUTHORIZE_COLUMNS = [
  "org_id", "user_id", "expires_at", "tombstone_reason", "tombstoned_at", "binding_kind", "binding_login_session_id", "user_suspended_at", "org_suspended_at",
  "membership_role", "membership_suspended_at", "key_revoked_at", "key_user_id", "login_revoked_at", "login_expires_at",
  "login_user_id", "repo_id", "repo_name", "repo_org_id", "repo_level",
] as const satisfies ReadonlyArray<keyof AuthorizeRow>;

export const AUTHORIZE_SELECT = sql`b.org_id, b.user_id, b.expires_at, b.tombstone_reason, b.tombstoned_at,
             b.kind as binding_kind, b.login_session_id as binding_login_session_id,
             u.suspended_at as user_suspended_at, o.suspended_at as org_suspended_at,
             m.role as membership_role, m.suspended_at as membership_suspended_at,
             k.revoked_at as key_revoked_at, k.user_id as key_user_id,
             ls.revoked_at as login_revoked_at, ls.expires_at as login_expires_at, ls.user_id as login_user_id,
             rr.id as repo_id, rr.name as repo_name, rr.org_id as repo_org_id, rr.level as repo_level`;

export const AUTHORIZE_JOINS = sql`left join session_bindings b on b.session_id = q.session_id
        left join users u on u.id = q.user_id
        left join organizations o on o.id = q.org_id
        left join memberships m on m.org_id = q.org_id and m.user_id = q.user_id
        left join api_keys k on k.id = q.api_key_id
        left join login_sessions ls on ls.id = q.login_session_id
        left join lateral (
          select r.id, r.name, r.org_id, rp.level from repositories r
            left join repo_permissions rp on rp.repo_id = r.id and rp.user_id = q.user_id
           where q.repo_ref is not null and r.org_id = q.org_id and (r.id = q.repo_ref or r.name = q.repo_ref)
           order by case when r.id = q.repo_ref then 0 else 1 end
           limit 1
        ) rr on true`;

/** One authorize() answer from a row read with AUTHORIZE_SELECT/JOINS for `req` (repo_ref = req.repo.ref when valid, else null). */
export async function authorizeRow(db: Db | Tx, clock: Clock, req: AuthorizeRequest, row: AuthorizeRow | undefined): Promise<Authorized | AppError> {
  try {
    if (!isValidId(req.sessionId)) throw new AppError("invalid_session_header");
    if (!row) throw new AppError("session_not_found");
    const looked = req.repo !== undefined && validRepoRef(req.repo.ref);
    return await applyRules(db, clock, req.principal, req.sessionId, row, req.repo && { level: req.repo.level, looked });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return err;
  }
}

export interface AuthorizeRequest {
  principal: Principal;
  sessionId: string;
  repo?: { ref: string; level: RepoLevel };
}

/**
 * Many authorize() checks in ONE statement (the job runner's rechecks of the
 * jobs it is finishing together): each request reads its own rows through a
 * VALUES list and gets exactly what authorize() would have returned or thrown
 * — the same rules (applyRules), the same order, the same codes. Results are
 * in request order: the Authorized, or the AppError it would have thrown.
 */
export async function authorizeMany(db: Db | Tx, clock: Clock, reqs: readonly AuthorizeRequest[]): Promise<Array<Authorized | AppError>> {
  const out: Array<Authorized | AppError | undefined> = reqs.map((r) => (isValidId(r.sessionId) ? undefined : new AppError("invalid_session_header")));
  const asked = reqs.flatMap((r, i) => (out[i] ? [] : [{ r, i, ref: r.repo && validRepoRef(r.repo.ref) ? r.repo.ref : null }]));
  if (asked.length > 0) {
    const values = sql.join(
      asked.map(({ r, i, ref }) => sql`(${i}::int, ${r.sessionId}::text, ${r.principal.orgId}::text, ${r.principal.userId}::text, ${r.principal.apiKeyId}::text, ${r.principal.loginSessionId}::text, ${ref}::text)`),
    );
    const rows = await sql<AuthorizeRow & { i: number }>`
      ${PREPARE} select q.i, ${AUTHORIZE_SELECT}
        from (values ${values}) as q(i, session_id, org_id, user_id, api_key_id, login_session_id, repo_ref)
        ${AUTHORIZE_JOINS}`.execute(db);
    const byIndex = new Map(rows.rows.map((row) => [Number(row.i), row]));
    for (const { r, i, ref } of asked) {
      const row = byIndex.get(i);
      try {
        if (!row) throw new AppError("session_not_found");
        out[i] = await applyRules(db, clock, r.principal, r.sessionId, row, r.repo && { level: r.repo.level, looked: ref !== null });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        out[i] = err;
      }
    }
  }
  return out as Array<Authorized | AppError>;
}

/**
 * The binding rules (REG-3..REG-5, HTTP-2), in one place: registered, owned by
 * this org and user, not revoked, not expired (an expiry observed here is
 * tombstoned at once). Returns the frozen identity.
 */
export async function checkBinding(
  db: Db | Tx,
  clock: Clock,
  p: { orgId: string; userId: string },
  sessionId: string,
  row: BindingState | null | undefined,
): Promise<{ identity: Identity; expiresAt: Date }> {
  if (!row || row.org_id === null || row.expires_at === null) throw new AppError("session_not_found");
  if (row.org_id !== p.orgId || row.user_id !== p.userId) throw new AppError("session_forbidden");
  if (row.tombstone_reason === "revoked") throw new AppError("session_revoked");
  if (row.tombstoned_at) throw new AppError("session_expired");
  if (row.expires_at.getTime() <= clock.now().getTime()) {
    await tombstoneExpired(db, clock, sessionId);
    throw new AppError("session_expired");
  }
  const identity = makeIdentity({ tenant_id: p.orgId, subject_id: p.userId, session_id: sessionId, parent_session_id: sessionId });
  return { identity, expiresAt: row.expires_at };
}

/**
 * HTTP-3, REG-8: a dashboard binding resolves only for the browser sign-in it was derived from (the
 * binding records it): never for an API key, another sign-in of the same user or any other principal.
 */
function checkDashboard(p: Principal, row: Pick<AuthorizeRow, "binding_kind" | "binding_login_session_id">): void {
  if (row.binding_kind !== "dashboard") return;
  if (p.apiKeyId !== null || p.loginSessionId === null || row.binding_login_session_id !== p.loginSessionId) throw new AppError("session_forbidden");
}

/**
 * Repository permission (RUN-7: by id or by name within the organisation).
 * Per-user grants only: platform admins and organisation roles get no bypass.
 * A repository the caller cannot see at all is `repo_not_found`.
 */
export async function authorizeRepo(
  db: Db | Tx,
  who: { orgId: string; userId: string },
  ref: string,
  level: RepoLevel,
): Promise<RepoAccess> {
  if (!validRepoRef(ref)) throw new AppError("repo_not_found");
  return checkRepo(await repoLookup(db, who, ref).executeTakeFirst(), level);
}

/** The boundary rule (core/boundary.ts) again, for callers that reach here without a schema. */
function validRepoRef(ref: unknown): ref is string {
  return typeof ref === "string" && ref.length >= 1 && ref.length <= MAX_ID_CHARS && isSafeId(ref);
}

/** The repository named by id or name within the organisation (the id wins), with this user's grant. */
function repoLookup(db: Db | Tx, who: { orgId: string; userId: string }, ref: string) {
  return db
    .selectFrom("repositories as r")
    .leftJoin("repo_permissions as rp", (j) => j.onRef("rp.repo_id", "=", "r.id").on("rp.user_id", "=", who.userId))
    .select(["r.id", "r.name", "r.org_id", "rp.level"])
    .where("r.org_id", "=", who.orgId)
    .where((eb) => eb.or([eb("r.id", "=", ref), eb("r.name", "=", ref)]))
    .orderBy(sql`case when r.id = ${ref} then 0 else 1 end`)
    .limit(1);
}

/** The repository rules: visible only with a grant, and the grant at least the level asked for. */
function checkRepo(row: { id: string; name: string; org_id: string; level: RepoLevel | null } | undefined, level: RepoLevel): RepoAccess {
  if (!row || !row.level) throw new AppError("repo_not_found");
  if (!levelAtLeast(row.level, level)) throw new AppError("repo_permission_denied", { details: { required: level } });
  return { repoId: row.id, repoName: row.name, orgId: row.org_id, level: row.level };
}

/**
 * authorize(): the one check that the HTTP middleware, the MCP tools and the
 * job runner all run (REG-7, JOB-6). From a principal (org, user, API key or
 * browser sign-in) and a primary session ID it rereads, in one statement, the
 * binding and every account row it depends on — no cache — and returns the
 * frozen Identity. A repository check is separate (`authorizeRepo`), and
 * `authorize` runs it too when asked.
 */
import { sql } from "kysely";
import { AppError } from "./errors";
import { assertAccountActive, type BindingState } from "./auth/authenticate";
import { makeIdentity, isValidId, type Identity } from "./execution/identity";
import { tombstoneExpired, type Principal } from "./registry/registry";
import type { Clock } from "./clock";
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
  const row = await db
    .selectFrom("session_bindings as b")
    .leftJoin("users as u", (j) => j.on("u.id", "=", p.userId))
    .leftJoin("organizations as o", (j) => j.on("o.id", "=", p.orgId))
    .leftJoin("memberships as m", (j) => j.on("m.org_id", "=", p.orgId).on("m.user_id", "=", p.userId))
    .leftJoin("api_keys as k", (j) => j.on("k.id", "=", p.apiKeyId ?? ""))
    .leftJoin("login_sessions as ls", (j) => j.on("ls.id", "=", p.loginSessionId ?? ""))
    .select([
      "b.org_id",
      "b.user_id",
      "b.expires_at",
      "b.tombstone_reason",
      "b.tombstoned_at",
      "u.suspended_at as user_suspended_at",
      "o.suspended_at as org_suspended_at",
      "m.role as membership_role",
      "m.suspended_at as membership_suspended_at",
      "k.revoked_at as key_revoked_at",
      "k.user_id as key_user_id",
      "ls.revoked_at as login_revoked_at",
      "ls.expires_at as login_expires_at",
      "ls.user_id as login_user_id",
    ])
    .where("b.session_id", "=", sessionId)
    .executeTakeFirst();
  if (!row) throw new AppError("session_not_found");
  const { identity, expiresAt } = await checkBinding(db, clock, p, sessionId, row);
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
  if (opts.repo) result.repo = await authorizeRepo(db, { orgId: p.orgId, userId: p.userId }, opts.repo.ref, opts.repo.level);
  return result;
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
  if (typeof ref !== "string" || ref.length < 1 || ref.length > 128) throw new AppError("repo_not_found");
  const row = await db
    .selectFrom("repositories as r")
    .leftJoin("repo_permissions as rp", (j) => j.onRef("rp.repo_id", "=", "r.id").on("rp.user_id", "=", who.userId))
    .select(["r.id", "r.name", "r.org_id", "rp.level"])
    .where("r.org_id", "=", who.orgId)
    .where((eb) => eb.or([eb("r.id", "=", ref), eb("r.name", "=", ref)]))
    .orderBy(sql`case when r.id = ${ref} then 0 else 1 end`)
    .executeTakeFirst();
  if (!row || !row.level) throw new AppError("repo_not_found");
  if (!levelAtLeast(row.level, level)) throw new AppError("repo_permission_denied", { details: { required: level } });
  return { repoId: row.id, repoName: row.name, orgId: row.org_id, level: row.level };
}

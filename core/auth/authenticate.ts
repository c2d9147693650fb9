/**
 * authenticate(): a request's credentials → an Actor, or a typed error.
 * Every call reads the current rows: a revoked key, an ended sign-in or a
 * suspension takes effect on the next request, with no cache in between.
 */
import { AppError } from "../errors";
import { safeEqualHex, sha256Hex } from "../crypto";
import { API_KEY_PATTERN, apiKeyPrefix } from "../accounts/api-keys";
import type { Clock } from "../clock";
import type { Db, Role } from "../../db/schema";

/** The binding columns every resolution reads (checked by core/authorize.ts `checkBinding`). */
export interface BindingState {
  org_id: string | null;
  user_id: string | null;
  expires_at: Date | null;
  tombstone_reason: string | null;
  tombstoned_at: Date | null;
}

export type AuthKind = "api_key" | "browser";

export interface Actor {
  readonly kind: AuthKind;
  readonly userId: string;
  readonly email: string;
  readonly orgId: string;
  readonly orgName: string;
  readonly role: Role;
  readonly isPlatformAdmin: boolean;
  /** Set for API-key callers. */
  readonly apiKeyId: string | null;
  /** Set for browser callers: the login session row and its token hash (dashboard binding input, HTTP-3). */
  readonly loginSessionId: string | null;
  readonly loginTokenHash: string | null;
}

export interface Credentials {
  /** The `Authorization: Bearer …` value. */
  bearer?: string | undefined;
  /** The sign-in cookie's token. */
  cookieToken?: string | undefined;
  /** `X-CodeSynapse-Org` (browser callers only). */
  orgHeader?: string | undefined;
}

/** Checks the account state every execution path rechecks (REG-7). */
export function assertAccountActive(row: {
  user_suspended_at: Date | null;
  org_suspended_at: Date | null;
  membership_role: string | null;
  membership_suspended_at: Date | null;
}): void {
  if (row.user_suspended_at) throw new AppError("user_suspended");
  if (!row.membership_role) throw new AppError("not_a_member");
  if (row.org_suspended_at) throw new AppError("org_suspended");
  if (row.membership_suspended_at) throw new AppError("membership_suspended");
}

export async function authenticate(db: Db, clock: Clock, creds: Credentials): Promise<Actor> {
  if (creds.bearer !== undefined) return (await authenticateApiKey(db, creds.bearer, null)).actor;
  if (creds.cookieToken !== undefined) return authenticateBrowser(db, clock, creds.cookieToken, creds.orgHeader);
  throw new AppError("unauthenticated");
}

/**
 * authenticate() plus the state of one binding, read in the same statement for
 * API keys (the hot path of every execution request). The binding rules are
 * applied by the caller through core/authorize.ts `checkBinding`.
 */
export async function authenticateWithBinding(
  db: Db,
  clock: Clock,
  creds: Credentials,
  sessionId: string,
): Promise<{ actor: Actor; binding: BindingState | null }> {
  if (creds.bearer !== undefined) return authenticateApiKey(db, creds.bearer, sessionId);
  const actor = await authenticate(db, clock, creds);
  const binding = await db
    .selectFrom("session_bindings")
    .select(["org_id", "user_id", "expires_at", "tombstone_reason", "tombstoned_at"])
    .where("session_id", "=", sessionId)
    .executeTakeFirst();
  return { actor, binding: binding ?? null };
}

async function authenticateApiKey(db: Db, key: string, sessionId: string | null): Promise<{ actor: Actor; binding: BindingState | null }> {
  if (!API_KEY_PATTERN.test(key)) throw new AppError("invalid_credentials");
  const row = await db
    .selectFrom("api_keys as k")
    .innerJoin("users as u", "u.id", "k.user_id")
    .innerJoin("organizations as o", "o.id", "k.org_id")
    .leftJoin("memberships as m", (j) => j.onRef("m.org_id", "=", "k.org_id").onRef("m.user_id", "=", "k.user_id"))
    .leftJoin("session_bindings as b", (j) => j.on("b.session_id", "=", sessionId ?? ""))
    .select([
      "k.id as key_id",
      "k.key_hash",
      "k.revoked_at",
      "k.org_id",
      "k.user_id",
      "u.email",
      "u.is_platform_admin",
      "u.suspended_at as user_suspended_at",
      "o.name as org_name",
      "o.suspended_at as org_suspended_at",
      "m.role as membership_role",
      "m.suspended_at as membership_suspended_at",
      "b.org_id as b_org_id",
      "b.user_id as b_user_id",
      "b.expires_at as b_expires_at",
      "b.tombstone_reason as b_tombstone_reason",
      "b.tombstoned_at as b_tombstoned_at",
    ])
    .where("k.prefix", "=", apiKeyPrefix(key))
    .executeTakeFirst();
  if (!row || !safeEqualHex(row.key_hash, sha256Hex(key))) throw new AppError("invalid_credentials");
  if (row.revoked_at) throw new AppError("api_key_revoked");
  assertAccountActive(row);
  const actor: Actor = {
    kind: "api_key",
    userId: row.user_id,
    email: row.email,
    orgId: row.org_id,
    orgName: row.org_name,
    role: row.membership_role as Role,
    isPlatformAdmin: row.is_platform_admin,
    apiKeyId: row.key_id,
    loginSessionId: null,
    loginTokenHash: null,
  };
  const binding: BindingState | null =
    sessionId === null || row.b_org_id === null
      ? null
      : { org_id: row.b_org_id, user_id: row.b_user_id, expires_at: row.b_expires_at, tombstone_reason: row.b_tombstone_reason, tombstoned_at: row.b_tombstoned_at };
  return { actor, binding };
}

async function authenticateBrowser(db: Db, clock: Clock, token: string, orgHeader: string | undefined): Promise<Actor> {
  if (token.length < 16 || token.length > 128) throw new AppError("invalid_credentials");
  const tokenHash = sha256Hex(token);
  const session = await db
    .selectFrom("login_sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["s.id", "s.user_id", "s.expires_at", "s.revoked_at", "u.email", "u.is_platform_admin", "u.suspended_at"])
    .where("s.token_hash", "=", tokenHash)
    .executeTakeFirst();
  if (!session) throw new AppError("invalid_credentials");
  if (session.revoked_at || session.expires_at.getTime() <= clock.now().getTime()) throw new AppError("login_session_ended");
  if (session.suspended_at) throw new AppError("user_suspended");

  let q = db
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.org_id")
    .select(["m.org_id", "m.role", "m.suspended_at as membership_suspended_at", "o.name as org_name", "o.suspended_at as org_suspended_at"])
    .where("m.user_id", "=", session.user_id);
  if (orgHeader !== undefined) q = q.where("m.org_id", "=", orgHeader);
  const memberships = await q.limit(2).execute();
  if (orgHeader !== undefined && memberships.length === 0) throw new AppError("not_a_member");
  if (memberships.length !== 1) throw new AppError(memberships.length === 0 ? "not_a_member" : "org_selection_required");
  const m = memberships[0]!;
  assertAccountActive({ user_suspended_at: null, org_suspended_at: m.org_suspended_at, membership_role: m.role, membership_suspended_at: m.membership_suspended_at });
  return {
    kind: "browser",
    userId: session.user_id,
    email: session.email,
    orgId: m.org_id,
    orgName: m.org_name,
    role: m.role,
    isPlatformAdmin: session.is_platform_admin,
    apiKeyId: null,
    loginSessionId: session.id,
    loginTokenHash: tokenHash,
  };
}

/**
 * IdentityStore: the statements behind accounts, API keys, sign-ins, the
 * session registry and the audit log — one verb per method, no rules. The
 * rules (validation, refusals, what a missing row means, the registry's
 * states) stay in core/accounts/, core/registry/ and core/audit.ts;
 * db/sql/identity/ implements the verbs over the relational database and main/
 * wires the store into the app context.
 */
import type { AuditEntry } from "./audit";
import type { AuthQuery, AuthRow } from "./authorize-rules";
import type { RepoLevel } from "./repo-level";

export type { RepoLevel };
export type Role = "owner" | "admin" | "member";
export type BindingKind = "runtime" | "dashboard";
export type TombstoneReason = "revoked" | "expired";

/** A session binding row (core/registry/registry.ts). */
export interface SessionBinding {
  session_id: string;
  org_id: string;
  user_id: string;
  kind: BindingKind;
  login_session_id: string | null;
  created_at: Date;
  expires_at: Date;
  tombstoned_at: Date | null;
  tombstone_reason: TombstoneReason | null;
  cleanup_done_at: Date | null;
}

export interface IdentityStore {
  /** Runs `fn` in one transaction with a store bound to it (inside one already, joins it). */
  transaction<T>(fn: (tx: IdentityStore) => Promise<T>): Promise<T>;

  insertOrganization(row: { id: string; name: string }): Promise<void>;
  organizationExists(orgId: string): Promise<boolean>;
  /** Sets the organisation's suspension; false when there is no such organisation. */
  suspendOrganization(orgId: string, at: Date): Promise<boolean>;

  insertUser(row: { id: string; email: string; passwordHash: string | null; platformAdmin: boolean }): Promise<void>;
  userExists(userId: string): Promise<boolean>;
  userIdByEmail(email: string): Promise<string | undefined>;
  /** What sign-in checks of a user, by email. */
  userForLogin(email: string): Promise<{ id: string; password_hash: string | null; suspended_at: Date | null } | undefined>;
  suspendUser(userId: string, at: Date): Promise<boolean>;

  /** Adds the membership, or sets the role of the one there is. */
  upsertMembership(row: { orgId: string; userId: string; role: Role }): Promise<void>;
  membershipRole(orgId: string, userId: string): Promise<Role | undefined>;
  suspendMembership(orgId: string, userId: string, at: Date): Promise<boolean>;
  deleteMembership(orgId: string, userId: string): Promise<void>;

  insertRepository(row: { id: string; orgId: string; name: string }): Promise<void>;
  repositoryExists(repoId: string): Promise<boolean>;
  repositoryIdByName(orgId: string, name: string): Promise<string | undefined>;
  /** Grants the level, or sets the level of the grant there is. */
  upsertRepoPermission(row: { repoId: string; userId: string; level: RepoLevel }): Promise<void>;

  insertApiKey(row: { id: string; orgId: string; userId: string; prefix: string; keyHash: string }): Promise<void>;
  /** Revokes the live key with this prefix; false when none was live. */
  revokeApiKey(prefix: string, at: Date): Promise<boolean>;
  apiKeyExists(prefix: string): Promise<boolean>;

  insertLoginSession(row: { id: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<void>;
  /** Ends the live sign-in with this token hash: the row it ended, if any. */
  endLoginSession(tokenHash: string, at: Date): Promise<{ id: string; user_id: string } | undefined>;

  insertAuditEntry(e: AuditEntry): Promise<void>;

  /** Locks the organisation's row until the transaction ends (fails when there is none). */
  lockOrganization(orgId: string): Promise<void>;
  findBinding(sessionId: string): Promise<SessionBinding | undefined>;
  /** The organisation's bindings: all it retains, and those live at `now`. */
  countBindings(orgId: string, now: Date): Promise<{ retained: number; active: number }>;
  /** Inserts the binding unless its ID exists (in any organisation): the row inserted, if it was. */
  insertBinding(row: SessionBinding): Promise<SessionBinding | undefined>;
  /** Tombstones, as expired, the binding if live and past its deadline at `now`; false when it was not. */
  tombstoneExpiredBinding(sessionId: string, now: Date): Promise<boolean>;
  /** Tombstones, as revoked, the binding if live: the row revoked, if it was. */
  revokeBinding(sessionId: string, now: Date): Promise<SessionBinding | undefined>;
  /** Tombstones, as revoked, every live dashboard binding of a sign-in: those it ended. */
  revokeDashboardBindings(loginSessionId: string, now: Date): Promise<Array<{ session_id: string; org_id: string }>>;
  /** Tombstones, as expired, up to `limit` live bindings past their deadline: those it ended. */
  expireDueBindings(now: Date, limit: number): Promise<Array<{ session_id: string; org_id: string; user_id: string }>>;

  /** THE authorization read: the row of each query, in one statement, in query order (undefined: none found). */
  readAuthorization(queries: readonly AuthQuery[]): Promise<Array<AuthRow | undefined>>;
}

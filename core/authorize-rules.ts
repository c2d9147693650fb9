/**
 * The authorization rules: one pure function over the one row that
 * core/authorize.ts's statement reads. Every path that resolves an identity —
 * the HTTP middleware, MCP, submission, the job claim and the recheck before a
 * job persists — ends here, so a refusal has one code and one precedence
 * everywhere:
 *
 *   0. the request itself   invalid_session_header
 *   1. the credential       invalid_credentials, unauthenticated, api_key_revoked, login_session_ended
 *   2. the account          user_suspended, not_a_member, org_selection_required, org_suspended, membership_suspended
 *   3. the binding          session_not_found, session_forbidden, session_revoked, session_expired
 *   4. the repository       repo_not_found, repo_permission_denied
 *
 * Who is asking is settled before what they ask for: a revoked key is
 * `api_key_revoked` whatever the state of the session it names, and nothing
 * about a session (registered, revoked, expired) is told to a caller that is
 * not its owner (`session_forbidden` comes before `session_revoked`).
 */
import { safeEqualHex } from "./crypto";
import { isValidId } from "./execution/identity";
import type { ErrorCode } from "./errors";
import type { IdentityRefusal } from "./errors-identity";
import type { RepoLevel, Role } from "./identity-store";
import { isSafeId } from "./boundary";
import { MAX_ID_CHARS } from "./limits";

/** Who asks: a credential presented at the API boundary, or the principal a job row recorded. */
export type Credential =
  | { kind: "api_key"; prefix: string; hash: string }
  | { kind: "browser"; tokenHash: string; orgId?: string | undefined }
  | { kind: "principal"; orgId: string; userId: string; apiKeyId: string | null; loginSessionId: string | null };

export interface AuthQuery {
  credential: Credential;
  /** The primary session asked for; absent when only the caller is resolved (account routes). */
  sessionId?: string | undefined;
  repo?: { ref: string; level: RepoLevel } | undefined;
}

/** What the statement reads for one query: the credential, the account, the binding and the repository. */
export interface AuthRow {
  key_id: string | null;
  key_hash: string | null;
  key_org_id: string | null;
  key_user_id: string | null;
  key_revoked_at: Date | null;
  login_id: string | null;
  login_user_id: string | null;
  login_revoked_at: Date | null;
  login_expires_at: Date | null;
  user_id: string | null;
  user_email: string | null;
  user_is_platform_admin: boolean | null;
  user_suspended_at: Date | null;
  /** The organisation asked for (the key's, the recorded tenant, the browser's header) or the browser's only one. */
  org_id: string | null;
  org_name: string | null;
  org_suspended_at: Date | null;
  membership_role: Role | null;
  membership_suspended_at: Date | null;
  /** How many memberships matched (a browser without an org header must have exactly one). */
  memberships: number | string | null;
  binding_org_id: string | null;
  binding_user_id: string | null;
  binding_expires_at: Date | null;
  binding_tombstone_reason: string | null;
  binding_tombstoned_at: Date | null;
  binding_kind: string | null;
  binding_login_session_id: string | null;
  repo_id: string | null;
  repo_name: string | null;
  repo_org_id: string | null;
  repo_level: RepoLevel | null;
}

export interface Caller {
  kind: "api_key" | "browser";
  orgId: string;
  orgName: string;
  userId: string;
  email: string;
  role: Role;
  isPlatformAdmin: boolean;
  apiKeyId: string | null;
  loginSessionId: string | null;
}

export type Decision =
  | { ok: true; caller: Caller; binding?: { expiresAt: Date }; repo?: { repoId: string; repoName: string; orgId: string; level: RepoLevel } }
  | {
      ok: false;
      code: ErrorCode;
      /** Which of the code's causes, when it has several (core/errors-identity.ts): it words the message. */
      cause?: IdentityRefusal;
      details?: Record<string, unknown>;
      /** An expiry observed here: tombstone the binding. */
      tombstone?: true;
    };

/** The boundary rule (core/boundary.ts) again, for a repository named by a caller that reached here without a schema. */
export function validRepoRef(ref: unknown): ref is string {
  return typeof ref === "string" && ref.length >= 1 && ref.length <= MAX_ID_CHARS && isSafeId(ref);
}

const LEVEL_RANK: Record<RepoLevel, number> = { read: 1, write: 2, admin: 3 };

export function levelAtLeast(have: RepoLevel, need: RepoLevel): boolean {
  return LEVEL_RANK[have] >= LEVEL_RANK[need];
}

const refuse = (code: ErrorCode, extra: Omit<Extract<Decision, { ok: false }>, "ok" | "code"> = {}): Decision => ({ ok: false, code, ...extra });

/** The rules, in the order above, over the row read for `q` (undefined: the statement found nothing for it). */
export function decide(q: AuthQuery, row: AuthRow | undefined, now: Date): Decision {
  if (q.sessionId !== undefined && !isValidId(q.sessionId)) return refuse("invalid_session_header", { cause: "session_id_malformed" });
  const r = row ?? EMPTY_ROW;
  // A credential that matches nothing: the message says which kind was not recognised.
  const unknown = { cause: q.credential.kind === "browser" ? "sign_in_unknown" : "api_key_unknown" } as const;
  const credential = checkCredential(q.credential, r, now);
  if (credential) return refuse(credential, credential === "invalid_credentials" ? unknown : {});
  const account = checkAccount(q.credential, r);
  if (account) return refuse(account, account === "invalid_credentials" ? unknown : {});
  const caller: Caller = {
    kind: r.key_id !== null ? "api_key" : "browser",
    orgId: r.org_id!,
    orgName: r.org_name!,
    userId: r.user_id!,
    email: r.user_email!,
    role: r.membership_role!,
    isPlatformAdmin: r.user_is_platform_admin === true,
    apiKeyId: r.key_id,
    loginSessionId: r.login_id,
  };
  const decision: Decision = { ok: true, caller };
  if (q.sessionId !== undefined) {
    const binding = checkBinding(caller, r, now);
    if ("code" in binding) return binding;
    decision.binding = binding;
  }
  if (q.repo) {
    if (!r.repo_id || !r.repo_level) return refuse("repo_not_found");
    if (!levelAtLeast(r.repo_level, q.repo.level)) return refuse("repo_permission_denied", { details: { required: q.repo.level } });
    decision.repo = { repoId: r.repo_id, repoName: r.repo_name!, orgId: r.repo_org_id!, level: r.repo_level };
  }
  return decision;
}

/**
 * Verifies the presented credential against the row: an API key (bearer token) by its SHA-256,
 * compared in constant time, then not revoked; a sign-in token by its live login session; a
 * recorded principal by its key or session still being its own and valid.
 */
function checkCredential(c: Credential, r: AuthRow, now: Date): ErrorCode | undefined {
  const signInEnded = () => r.login_revoked_at !== null || r.login_expires_at === null || r.login_expires_at.getTime() <= now.getTime();
  switch (c.kind) {
    case "api_key":
      if (r.key_id === null || r.key_hash === null || !safeEqualHex(r.key_hash, c.hash)) return "invalid_credentials";
      return r.key_revoked_at ? "api_key_revoked" : undefined;
    case "browser":
      if (r.login_id === null) return "invalid_credentials";
      return signInEnded() ? "login_session_ended" : undefined;
    case "principal":
      // A recorded principal names its credential by id: gone, moved or revoked all mean "no longer valid".
      if (c.apiKeyId !== null) {
        return r.key_id === null || r.key_user_id !== c.userId || r.key_org_id !== c.orgId || r.key_revoked_at ? "api_key_revoked" : undefined;
      }
      if (c.loginSessionId !== null) return r.login_id === null || r.login_user_id !== c.userId || signInEnded() ? "login_session_ended" : undefined;
      return "unauthenticated";
  }
}

function checkAccount(c: Credential, r: AuthRow): ErrorCode | undefined {
  if (r.user_id === null) return "invalid_credentials";
  if (r.user_suspended_at) return "user_suspended";
  const matched = Number(r.memberships ?? 0);
  if (matched === 0 || !r.membership_role || r.org_id === null) return "not_a_member";
  // A browser that names no organisation must belong to exactly one.
  if (c.kind === "browser" && c.orgId === undefined && matched > 1) return "org_selection_required";
  if (r.org_suspended_at) return "org_suspended";
  if (r.membership_suspended_at) return "membership_suspended";
  return undefined;
}

/** REG-3..REG-5, HTTP-2, HTTP-3: registered, owned by this caller, a dashboard binding only for its own sign-in, live. */
function checkBinding(caller: Caller, r: AuthRow, now: Date): { expiresAt: Date } | Extract<Decision, { ok: false }> {
  if (r.binding_org_id === null || r.binding_expires_at === null) return { ok: false, code: "session_not_found" };
  if (r.binding_org_id !== caller.orgId || r.binding_user_id !== caller.userId) return { ok: false, code: "session_forbidden" };
  if (r.binding_kind === "dashboard" && (caller.apiKeyId !== null || caller.loginSessionId === null || r.binding_login_session_id !== caller.loginSessionId)) {
    return { ok: false, code: "session_forbidden" };
  }
  if (r.binding_tombstone_reason === "revoked") return { ok: false, code: "session_revoked" };
  if (r.binding_tombstoned_at) return { ok: false, code: "session_expired" };
  if (r.binding_expires_at.getTime() <= now.getTime()) return { ok: false, code: "session_expired", tombstone: true };
  return { expiresAt: r.binding_expires_at };
}

const EMPTY_ROW: AuthRow = {
  key_id: null, key_hash: null, key_org_id: null, key_user_id: null, key_revoked_at: null,
  login_id: null, login_user_id: null, login_revoked_at: null, login_expires_at: null,
  user_id: null, user_email: null, user_is_platform_admin: null, user_suspended_at: null,
  org_id: null, org_name: null, org_suspended_at: null, membership_role: null, membership_suspended_at: null, memberships: null,
  binding_org_id: null, binding_user_id: null, binding_expires_at: null, binding_tombstone_reason: null, binding_tombstoned_at: null,
  binding_kind: null, binding_login_session_id: null,
  repo_id: null, repo_name: null, repo_org_id: null, repo_level: null,
};

/**
 * The authorization rules as a table: every refusal code, for every kind of
 * credential it applies to, and its precedence — for every pair of faults, the
 * one that ranks first is the one reported. If two paths (HTTP, MCP, the
 * claim, the persist recheck) could answer the same state with different
 * codes, some pair here would fail.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../core/crypto";
import { decide, type AuthQuery, type AuthRow, type Credential } from "../../core/authorize-rules";

const NOW = new Date(Date.UTC(2026, 11, 3, 12));
const LATER = new Date(NOW.getTime() + 3600_000);
const EARLIER = new Date(NOW.getTime() - 1);
const KEY_HASH = sha256Hex("csk_00000000_key");

type Kind = Credential["kind"];

function query(kind: Kind): AuthQuery {
  const credential: Credential =
    kind === "api_key" ? { kind, prefix: "csk_00000000", hash: KEY_HASH }
    : kind === "browser" ? { kind, tokenHash: "t".repeat(64) }
    : { kind, orgId: "org1", userId: "user1", apiKeyId: "key1", loginSessionId: null };
  return { credential, sessionId: "chat-1", repo: { ref: "repo1", level: "write" } };
}

function row(kind: Kind): AuthRow {
  const key = kind === "api_key" || kind === "principal";
  return {
    key_id: key ? "key1" : null, key_hash: key ? KEY_HASH : null, key_org_id: key ? "org1" : null, key_user_id: key ? "user1" : null, key_revoked_at: null,
    login_id: kind === "browser" ? "ls1" : null, login_user_id: kind === "browser" ? "user1" : null, login_revoked_at: null, login_expires_at: kind === "browser" ? LATER : null,
    user_id: "user1", user_email: "a@example.test", user_is_platform_admin: false, user_suspended_at: null,
    org_id: "org1", org_name: "Acme", org_suspended_at: null, membership_role: "member", membership_suspended_at: null, memberships: "1",
    binding_org_id: "org1", binding_user_id: "user1", binding_expires_at: LATER, binding_tombstone_reason: null, binding_tombstoned_at: null,
    binding_kind: "runtime", binding_login_session_id: null,
    repo_id: "repo1", repo_name: "repo", repo_org_id: "org1", repo_level: "write",
  };
}

interface Fault {
  name: string;
  code: string;
  kinds: readonly Kind[];
  /** The fields it changes: two faults on the same field are not combined. */
  fields: readonly string[];
  apply: (r: AuthRow, q: AuthQuery) => void;
}

const ALL: readonly Kind[] = ["api_key", "browser", "principal"];

/** In precedence order: a fault earlier in this list is reported over any later one. */
const FAULTS: readonly Fault[] = [
  { name: "malformed session id", code: "invalid_session_header", kinds: ALL, fields: ["q.session"], apply: (_r, q) => void (q.sessionId = "no spaces allowed") },
  { name: "unknown key", code: "invalid_credentials", kinds: ["api_key"], fields: ["key_id"], apply: (r) => void (r.key_id = null) },
  { name: "wrong key secret", code: "invalid_credentials", kinds: ["api_key"], fields: ["key_hash"], apply: (r) => void (r.key_hash = sha256Hex("other")) },
  { name: "unknown sign-in", code: "invalid_credentials", kinds: ["browser"], fields: ["login_id"], apply: (r) => void (r.login_id = null) },
  { name: "recorded key deleted", code: "api_key_revoked", kinds: ["principal"], fields: ["key_id"], apply: (r) => void (r.key_id = null) },
  { name: "recorded key of another user", code: "api_key_revoked", kinds: ["principal"], fields: ["key_user_id"], apply: (r) => void (r.key_user_id = "user2") },
  { name: "key revoked", code: "api_key_revoked", kinds: ["api_key", "principal"], fields: ["key_revoked_at"], apply: (r) => void (r.key_revoked_at = EARLIER) },
  { name: "sign-out", code: "login_session_ended", kinds: ["browser"], fields: ["login_revoked_at"], apply: (r) => void (r.login_revoked_at = EARLIER) },
  { name: "sign-in expired", code: "login_session_ended", kinds: ["browser"], fields: ["login_expires_at"], apply: (r) => void (r.login_expires_at = NOW) },
  { name: "user suspended", code: "user_suspended", kinds: ALL, fields: ["user_suspended_at"], apply: (r) => void (r.user_suspended_at = EARLIER) },
  { name: "no membership", code: "not_a_member", kinds: ALL, fields: ["memberships", "membership_role"], apply: (r) => void ((r.memberships = "0"), (r.membership_role = null)) },
  { name: "browser in two orgs, none named", code: "org_selection_required", kinds: ["browser"], fields: ["memberships"], apply: (r) => void (r.memberships = "2") },
  { name: "org suspended", code: "org_suspended", kinds: ALL, fields: ["org_suspended_at"], apply: (r) => void (r.org_suspended_at = EARLIER) },
  { name: "membership suspended", code: "membership_suspended", kinds: ALL, fields: ["membership_suspended_at"], apply: (r) => void (r.membership_suspended_at = EARLIER) },
  { name: "session not registered", code: "session_not_found", kinds: ALL, fields: ["binding_org_id"], apply: (r) => void (r.binding_org_id = null) },
  { name: "session of another user", code: "session_forbidden", kinds: ALL, fields: ["binding_user_id"], apply: (r) => void (r.binding_user_id = "user2") },
  {
    name: "dashboard binding of another sign-in", code: "session_forbidden", kinds: ALL, fields: ["binding_kind"],
    apply: (r) => void ((r.binding_kind = "dashboard"), (r.binding_login_session_id = "ls-other")),
  },
  { name: "session revoked", code: "session_revoked", kinds: ALL, fields: ["binding_tombstone_reason", "binding_tombstoned_at"], apply: (r) => void ((r.binding_tombstone_reason = "revoked"), (r.binding_tombstoned_at = EARLIER)) },
  { name: "session expired (tombstoned)", code: "session_expired", kinds: ALL, fields: ["binding_tombstone_reason", "binding_tombstoned_at"], apply: (r) => void ((r.binding_tombstone_reason = "expired"), (r.binding_tombstoned_at = EARLIER)) },
  { name: "session past its deadline", code: "session_expired", kinds: ALL, fields: ["binding_expires_at"], apply: (r) => void (r.binding_expires_at = NOW) },
  { name: "repository not visible", code: "repo_not_found", kinds: ALL, fields: ["repo_id", "repo_level"], apply: (r) => void (r.repo_level = null) },
  { name: "repository grant too low", code: "repo_permission_denied", kinds: ALL, fields: ["repo_level"], apply: (r) => void (r.repo_level = "read") },
];

function answer(kind: Kind, faults: readonly Fault[]): string {
  const q = query(kind);
  const r = row(kind);
  for (const f of faults) f.apply(r, q);
  const d = decide(q, r, NOW);
  return d.ok ? "ok" : d.code;
}

describe("authorization rules", () => {
  it.each(ALL)("a %s credential in good standing is granted identity and repository", (kind) => {
    const q = query(kind);
      const d = decide(q, row(kind), NOW);
    expect(d).toMatchObject({ ok: true, caller: { orgId: "org1", userId: "user1", role: "member" }, repo: { repoId: "repo1", level: "write" } });
    expect(d).toMatchObject({ binding: { expiresAt: LATER } });
  });

  const cases = FAULTS.flatMap((f) => f.kinds.map((kind) => [f.name, kind, f] as const));
  it.each(cases)("%s (%s) is refused with its code", (_name, kind, f) => {
    expect(answer(kind, [f])).toBe(f.code);
  });

  it("every pair of faults reports the one that ranks first, for every credential", () => {
    let pairs = 0;
    for (const kind of ALL) {
      for (let i = 0; i < FAULTS.length; i++) {
        for (let j = i + 1; j < FAULTS.length; j++) {
          const [a, b] = [FAULTS[i]!, FAULTS[j]!];
          if (!a.kinds.includes(kind) || !b.kinds.includes(kind) || a.fields.some((f) => b.fields.includes(f))) continue;
          expect({ kind, faults: [a.name, b.name], code: answer(kind, [b, a]) }).toEqual({ kind, faults: [a.name, b.name], code: a.code });
          pairs++;
        }
      }
    }
    expect(pairs).toBeGreaterThan(300);
  });

  it("an expiry observed here asks for the binding to be tombstoned; an expiry already recorded does not", () => {
    const past = row("api_key");
    past.binding_expires_at = NOW;
    expect(decide(query("api_key"), past, NOW)).toEqual({ ok: false, code: "session_expired", tombstone: true });
    const recorded = row("api_key");
    recorded.binding_tombstoned_at = EARLIER;
    expect(decide(query("api_key"), recorded, NOW)).toEqual({ ok: false, code: "session_expired" });
  });

  it("a revoked key on a revoked session is api_key_revoked on every path (presented or recorded)", () => {
    for (const kind of ["api_key", "principal"] as const) {
      const r = row(kind);
      r.key_revoked_at = EARLIER;
      r.binding_tombstone_reason = "revoked";
      r.binding_tombstoned_at = EARLIER;
      expect(decide(query(kind), r, NOW)).toMatchObject({ ok: false, code: "api_key_revoked" });
    }
  });

  it("a statement that found nothing is a bad credential, never a grant", () => {
    for (const kind of ALL) expect(decide(query(kind), undefined, NOW)).toMatchObject({ ok: false });
    expect(decide(query("api_key"), undefined, NOW)).toMatchObject({ code: "invalid_credentials" });
  });
});

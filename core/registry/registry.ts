/**
 * The session registry (REG-2..REG-6): binds a runtime-supplied primary
 * session ID, globally and forever, to one (organisation, user).
 *
 * States of a binding row:  active  --revoke-->  tombstoned(revoked)
 *                           active  --now >= expires_at, observed-->  tombstoned(expired)
 * A tombstoned row is never deleted and never leaves that state, so an ID can
 * be registered at most once in the platform's lifetime.
 *
 * Invariants, held under concurrency:
 * - registration locks the organisation row (`for update`), so the active and
 *   retained counts it checks cannot change before it inserts: the 1,025th
 *   active binding never slips in;
 * - global uniqueness is the primary key; a racing insert for the same ID in
 *   another organisation does nothing (`on conflict do nothing`) and re-reads.
 */
import { AppError, limitError } from "../errors";
import { identityFieldRefusal } from "../errors-identity";
import { sha256Hex } from "../crypto";
import { audit } from "../audit";
import { BINDING_TTL_MS, DASHBOARD_WINDOW_MS, MAX_ACTIVE_BINDINGS_PER_ORG, MAX_RETAINED_BINDINGS_PER_ORG } from "../limits";
import { isValidId } from "../execution/identity";
import type { Clock } from "../clock";
import type { BindingKind, IdentityStore, SessionBinding } from "../identity-store";

/** Who is registering or revoking: the authenticated caller. */
export interface Principal {
  orgId: string;
  userId: string;
  apiKeyId: string | null;
  loginSessionId: string | null;
  role?: string;
}

export interface Registration {
  binding: SessionBinding;
  created: boolean;
}

/** HTTP-3: the prefix reserved for dashboard bindings; a runtime can neither register nor name such an ID. */
export const DASHBOARD_PREFIX = "web:";

export function isDashboardId(sessionId: string): boolean {
  return sessionId.startsWith(DASHBOARD_PREFIX);
}

/**
 * A dashboard ID named where only the implicit binding may use it (execution headers, registration):
 * audited without the ID (a SHA-256 of it), then refused with `dashboard_session_named`.
 */
export async function refuseNamedDashboard(store: IdentityStore, clock: Clock, p: Principal, sessionId: string, where: "headers" | "register"): Promise<never> {
  await audit(store, {
    at: clock.now(), orgId: p.orgId, actorUserId: p.userId, actorKeyId: p.apiKeyId, action: "session.dashboard_refused", outcome: "refused",
    sessionTarget: null, details: { where, credential: p.apiKeyId !== null ? "api_key" : "browser", target_sha256: sha256Hex(sessionId) },
  });
  throw new AppError("dashboard_session_named");
}

export async function findBinding(store: IdentityStore, sessionId: string): Promise<SessionBinding | undefined> {
  return store.findBinding(sessionId);
}

/** Observed expiry: tombstones an expired binding (idempotent). */
export async function tombstoneExpired(store: IdentityStore, clock: Clock, sessionId: string): Promise<boolean> {
  return store.tombstoneExpiredBinding(sessionId, clock.now());
}

function refusal(b: SessionBinding, p: Principal, now: Date): AppError | undefined {
  const owned = b.org_id === p.orgId && b.user_id === p.userId;
  if (!owned) return new AppError("session_claimed");
  if (b.tombstone_reason === "revoked") return new AppError("session_revoked");
  if (b.tombstoned_at || b.expires_at.getTime() <= now.getTime()) return new AppError("session_expired");
  return undefined;
}

export async function registerSession(
  store: IdentityStore,
  clock: Clock,
  p: Principal,
  sessionId: string,
  opts: { kind?: BindingKind } = {},
): Promise<Registration> {
  if (!isValidId(sessionId)) throw identityFieldRefusal("session_id");
  const kind = opts.kind ?? "runtime";
  if (kind === "runtime" && isDashboardId(sessionId)) return refuseNamedDashboard(store, clock, p, sessionId, "register");
  if (kind === "dashboard" && (!isDashboardId(sessionId) || p.loginSessionId === null)) throw new AppError("invalid_identity", { details: { field: "session_id" } });
  const result = await store.transaction(async (tx) => {
    const now = clock.now();
    // Serialise registrations per organisation (quota checks below).
    await tx.lockOrganization(p.orgId);
    const existing = await tx.findBinding(sessionId);
    if (existing) return { existing, now };
    const counts = await tx.countBindings(p.orgId, now);
    if (counts.retained >= MAX_RETAINED_BINDINGS_PER_ORG) {
      return { limit: limitError("retained_sessions_per_org", MAX_RETAINED_BINDINGS_PER_ORG), now };
    }
    if (counts.active >= MAX_ACTIVE_BINDINGS_PER_ORG) {
      return { limit: limitError("active_sessions_per_org", MAX_ACTIVE_BINDINGS_PER_ORG), now };
    }
    const inserted = await tx.insertBinding({
      session_id: sessionId,
      org_id: p.orgId,
      user_id: p.userId,
      kind,
      login_session_id: kind === "dashboard" ? p.loginSessionId : null,
      created_at: now,
      expires_at: new Date(now.getTime() + BINDING_TTL_MS),
      tombstoned_at: null,
      tombstone_reason: null,
      cleanup_done_at: null,
    });
    if (inserted) {
      await audit(tx, {
        at: now, orgId: p.orgId, actorUserId: p.userId, actorKeyId: p.apiKeyId,
        action: kind === "dashboard" ? "session.dashboard_bind" : "session.register", outcome: "ok", sessionTarget: sessionId,
      });
      return { created: inserted, now };
    }
    // Lost a race with another organisation's insert of the same ID.
    return { existing: await tx.findBinding(sessionId), now };
  });

  if ("limit" in result) throw result.limit;
  if ("created" in result && result.created) return { binding: result.created, created: true };
  const existing = (result as { existing: SessionBinding | undefined }).existing;
  if (!existing) throw new AppError("conflict");
  const refused = refusal(existing, p, result.now);
  if (refused) {
    if (refused.code === "session_expired") await tombstoneExpired(store, clock, sessionId);
    await audit(store, {
      at: result.now, orgId: p.orgId, actorUserId: p.userId, actorKeyId: p.apiKeyId, action: "session.claim_refused", outcome: "refused",
      // Never the rejected ID itself: only the owner's audit trail names it.
      sessionTarget: null, details: { reason: refused.code, target_sha256: sha256Hex(sessionId) },
    });
    throw refused;
  }
  await audit(store, {
    at: result.now, orgId: p.orgId, actorUserId: p.userId, actorKeyId: p.apiKeyId, action: "session.register_repeat", outcome: "ok", sessionTarget: sessionId,
  });
  return { binding: existing, created: false };
}

/**
 * Revokes a binding (REG-5): its owner, or an owner/admin of its organisation.
 * Anyone else gets `session_not_found`, so the call reveals nothing about IDs
 * the caller does not own. Revoking twice is a no-op.
 */
export async function revokeSession(store: IdentityStore, clock: Clock, p: Principal & { role: string }, sessionId: string): Promise<SessionBinding> {
  if (!isValidId(sessionId)) throw new AppError("session_not_found");
  const now = clock.now();
  const b = await store.findBinding(sessionId);
  const allowed = b && b.org_id === p.orgId && (b.user_id === p.userId || p.role === "owner" || p.role === "admin");
  if (!b || !allowed) throw new AppError("session_not_found");
  if (b.tombstoned_at) return b;
  const updated = await store.revokeBinding(sessionId, now);
  await audit(store, { at: now, orgId: p.orgId, actorUserId: p.userId, actorKeyId: p.apiKeyId, action: "session.revoke", outcome: "ok", sessionTarget: sessionId });
  return updated ?? (await store.findBinding(sessionId))!;
}

/**
 * Sign-out (HTTP-3): tombstones, as revoked, every live dashboard binding of that browser sign-in, so
 * it is unreachable at once by every path (requests, MCP, jobs). Returns the IDs it ended.
 */
export async function endDashboardBindings(store: IdentityStore, clock: Clock, login: { id: string; userId: string }): Promise<string[]> {
  const now = clock.now();
  const rows = await store.revokeDashboardBindings(login.id, now);
  for (const r of rows) {
    await audit(store, {
      at: now, orgId: r.org_id, actorUserId: login.userId, actorKeyId: null, action: "session.revoke", outcome: "ok",
      sessionTarget: r.session_id, details: { reason: "logout" },
    });
  }
  return rows.map((r) => r.session_id);
}

/** The cleanup pool's step: tombstones up to `limit` bindings whose deadline passed. Returns how many. */
export async function expireDueBindings(store: IdentityStore, clock: Clock, limit = 500): Promise<number> {
  const now = clock.now();
  const rows = await store.expireDueBindings(now, limit);
  for (const r of rows) {
    await audit(store, { at: now, orgId: r.org_id, actorUserId: null, actorKeyId: null, action: "session.expire", outcome: "ok", sessionTarget: r.session_id });
  }
  return rows.length;
}

/**
 * HTTP-3: the dashboard binding of a signed-in browser:
 * `web:` + hex SHA-256 of (login token hash, organisation, 7-day window index).
 */
export function dashboardSessionId(loginTokenHash: string, orgId: string, now: Date): string {
  const window = Math.floor(now.getTime() / DASHBOARD_WINDOW_MS);
  return `web:${sha256Hex(`${loginTokenHash}\n${orgId}\n${window}`)}`;
}

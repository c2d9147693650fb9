/**
 * The control plane: what a runtime does before and after its work, and how a
 * browser signs in. These operations take no execution session (they are how
 * one comes to exist and ends), so they are never MCP tools:
 *
 *   credential  `execution.register_session` (201 the first time, 200 for
 *               an idempotent repeat), `execution.revoke_session` (the
 *               owner, or an owner/admin of the organisation; a permanent
 *               tombstone), `account.me` (who the credentials are);
 *   none        `auth.login` (an HttpOnly, SameSite=Strict cookie) and
 *               `auth.logout`.
 *
 * Routes, statuses and error codes are those of the hand-written routes they
 * replace; the one order that moved is registration's: its body is validated
 * before the per-organisation rate limit counts the call (a malformed
 * registration no longer uses up the organisation's budget).
 */
import { z } from "zod";
import { login, logout } from "../core/accounts/login-sessions";
import { idString, textString } from "../core/boundary";
import { isAppError, AppError } from "../core/errors";
import { ID_PATTERN } from "../core/execution/identity";
import { MEMORY_PURGE_BATCH } from "../core/limits";
import { registerSession, revokeSession } from "../core/registry/registry";
import { cleanSession } from "../core/retention/cleanup";
import { defineOperation, WithStatus } from "./operation";

/** The sign-in cookie (a random token; only its hash is stored). */
export const SESSION_COOKIE = "cs_session";

const identityView = z.object({
  tenant_id: z.string(),
  subject_id: z.string(),
  session_id: z.string(),
  parent_session_id: z.string(),
  expires_at: z.string(),
});

const sessionId = z
  .string()
  .max(1024)
  // Checked by the registry (400 invalid_identity, not validation_failed): the document states the rule.
  .meta({ pattern: ID_PATTERN.source })
  .describe("The chat thread's primary session ID, chosen by the runtime: 1-128 characters of A-Z a-z 0-9 . _ : -.");

export const registerSessionOp = defineOperation({
  name: "execution.register_session",
  title: "Register a chat thread's session",
  description:
    "Binds a primary session ID (the runtime's own chat-thread ID) to the caller's organisation and user for 7 days: 201 the first " +
    "time, 200 with the same binding and expiry after that (idempotent, so a restarted runtime calls it again). An ID another " +
    "caller holds is session_claimed; a revoked or expired one is session_revoked / session_expired, for good. Every execution " +
    "call then names it in both X-CodeSynapse-Session and X-CodeSynapse-Parent-Session. Answers the execution identity.",
  auth: "credential",
  input: { session_id: sessionId },
  output: identityView,
  errors: ["invalid_identity", "dashboard_session_named", "session_claimed", "session_revoked", "session_expired", "limit_exceeded", "conflict"],
  rateLimited: true,
  http: [{ method: "post", path: "/api/v1/execution/sessions", status: 201, otherStatus: [200] }],
  async run(call, input) {
    const { identity, clock, limits } = call.services;
    if (!limits) throw new AppError("internal", { message: "Rate limits are not configured." });
    await limits.registrations.consume(call.actor.orgId);
    const { binding, created } = await registerSession(identity, clock, call.principal, input.session_id);
    const body = {
      tenant_id: binding.org_id,
      subject_id: binding.user_id,
      session_id: binding.session_id,
      parent_session_id: binding.session_id,
      expires_at: binding.expires_at.toISOString(),
    };
    return created ? body : new WithStatus(200, body);
  },
});

export const revokeSessionOp = defineOperation({
  name: "execution.revoke_session",
  title: "Revoke a chat thread's session",
  description:
    "Ends a session for good (its owner, or an owner or admin of its organisation): every later call naming it is session_revoked, " +
    "and its session memory and vectors are cleaned up (at once, then retried every minute until done). Revoking twice is a no-op. " +
    "A session the caller may not revoke is session_not_found, like one that does not exist.",
  auth: "credential",
  input: { session_id: idString().describe("The session to revoke.") },
  output: null,
  errors: ["session_not_found"],
  http: [{ method: "delete", path: "/api/v1/execution/sessions/:id", rename: { session_id: "id" } }],
  async run(call, input) {
    const { identity, clock, cleaners, logger, stores } = call.services;
    const binding = await revokeSession(identity, clock, { ...call.principal, role: call.actor.role }, input.session_id);
    // Execution is blocked by the tombstone already; attempt the data cleanup now (one bounded
    // pass); the cleanup pool retries every minute until it is done.
    if (cleaners) await cleanSession(cleaners, { tenant_id: binding.org_id, session_id: binding.session_id }, logger, { limit: MEMORY_PURGE_BATCH, batches: 1, record: { receipts: stores.receipts, now: clock.now() } });
    return null;
  },
});

export const whoAmI = defineOperation({
  name: "account.me",
  title: "Who the credentials are",
  description:
    "The user, organisation and role the presented API key or browser sign-in stands for, and which of the two it is. " +
    "No key material, no session.",
  auth: "credential",
  input: {},
  output: z.object({
    user: z.object({ id: z.string(), email: z.string(), is_platform_admin: z.boolean() }),
    organization: z.object({ id: z.string(), name: z.string() }),
    role: z.enum(["owner", "admin", "member"]),
    auth: z.enum(["api_key", "browser"]),
  }),
  http: [{ method: "get", path: "/api/v1/me" }],
  run: async ({ actor: a }) => ({
    user: { id: a.userId, email: a.email, is_platform_admin: a.isPlatformAdmin },
    organization: { id: a.orgId, name: a.orgName },
    role: a.role,
    auth: a.kind,
  }),
});

export const signIn = defineOperation({
  name: "auth.login",
  title: "Sign in (browser)",
  description:
    "Checks an email and password and sets the sign-in cookie (HttpOnly, SameSite=Strict). Repeated failures of one account from " +
    "one client, or many from one client, are blocked for a growing time (429 rate_limited with Retry-After). Answers {user_id, expires_at}.",
  auth: "none",
  input: { email: idString(320).min(3).describe("The user's email."), password: textString(1024).min(1).describe("The user's password.") },
  output: z.object({ user_id: z.string(), expires_at: z.string(), token: z.string() }),
  errors: ["invalid_credentials"],
  rateLimited: true,
  http: [{ method: "post", path: "/api/v1/auth/login", setCookie: { name: SESSION_COOKIE, value: "token", expires: "expires_at" } }],
  async run(call, input) {
    const { identity, clock, config, limits } = call.services;
    if (!limits) throw new AppError("internal", { message: "Rate limits are not configured." });
    // Rate limits (core/rate-limit.ts): a blocked account+client or client is refused before the password is checked.
    await limits.login.check(input.email, call.clientIp);
    let s: Awaited<ReturnType<typeof login>>;
    try {
      s = await login(identity, clock, { ...input, ttlHours: config.LOGIN_SESSION_TTL_HOURS });
    } catch (err) {
      if (isAppError(err, "invalid_credentials")) await limits.login.failed(input.email, call.clientIp);
      throw err;
    }
    await limits.login.succeeded(input.email, call.clientIp);
    return { user_id: s.userId, expires_at: s.expiresAt.toISOString(), token: s.token };
  },
});

export const signOut = defineOperation({
  name: "auth.logout",
  title: "Sign out (browser)",
  description: "Ends the browser sign-in the cookie carries, if any, and clears the cookie. Always 204.",
  auth: "none",
  input: { token: z.string().max(1024).optional() },
  output: null,
  http: [{ method: "post", path: "/api/v1/auth/logout", fromCookies: { token: SESSION_COOKIE }, clearCookie: SESSION_COOKIE }],
  async run(call, input) {
    if (input.token) await logout(call.services.identity, call.services.clock, input.token);
    return null;
  },
});

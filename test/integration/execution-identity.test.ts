import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { requireExecution, executionOf } from "../../api/execution";
import { errorMiddleware } from "../../api/http";
import { addMember, removeMember, suspendUser } from "../../core/accounts/accounts";
import { ManualClock } from "../../core/clock";
import { currentExecution, requireIdentity } from "../../core/execution/context";
import { registerSession, revokeSession } from "../../core/registry/registry";
import { BINDING_TTL_MS, MAX_ACTIVE_BINDINGS_PER_ORG, MAX_RETAINED_BINDINGS_PER_ORG } from "../../core/limits";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, executionHeaders, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";

const DAY = 24 * 3600 * 1000;

const headersFor = (a: Account, session: string, parent = session) => executionHeaders(a.apiKey, session, parent);

await describeEachDatabase("execution identity and session registry", (t) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 12, 0, 0));
  const logLines: string[] = [];
  let srv: TestServer;
  beforeAll(async () => {
    const logger = pino({ level: "trace" }, new Writable({ write: (c, _e, cb) => (logLines.push(String(c)), cb()) }));
    const ctx = testContext(t().db, { clock, logger });
    const app = createApp(ctx);
    srv = await listen(app);
  });
  afterAll(() => srv.close());

  const register = (a: Account, id: string) => call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), body: { session_id: id } });
  const whoami = (a: Account, id: string, parent = id) => call(srv.url, "GET", "/api/v1/execution/identity", { headers: headersFor(a, id, parent) });

  it("registers once (201) and repeats idempotently (200) with the same fixed expires_at", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("chat");
    const first = await register(a, id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      tenant_id: a.orgId, subject_id: a.userId, session_id: id, parent_session_id: id,
      expires_at: new Date(clock.now().getTime() + BINDING_TTL_MS).toISOString(),
    });
    clock.advance(DAY);
    await whoami(a, id);
    const again = await register(a, id);
    expect(again.status).toBe(200);
    expect(again.body.expires_at).toBe(first.body.expires_at);
    expect((await whoami(a, id)).body).toEqual(first.body);
  });

  it("another user or organisation cannot claim a bound ID, and the 409 does not echo it", async () => {
    const owner = await seedAccount(t().db);
    const sameOrg = await seedAccount(t().db, { orgId: owner.orgId });
    const otherOrg = await seedAccount(t().db);
    const id = uniq("claimed");
    expect((await register(owner, id)).status).toBe(201);
    for (const intruder of [sameOrg, otherOrg]) {
      const r = await register(intruder, id);
      expect([r.status, r.body.error.code]).toEqual([409, "session_claimed"]);
      expect(r.text).not.toContain(id);
      const use = await whoami(intruder, id);
      expect([use.status, use.body.error.code]).toEqual([403, "session_forbidden"]);
      expect(use.text).not.toContain(id);
    }
  });

  it("refuses malformed IDs without echoing them", async () => {
    const a = await seedAccount(t().db);
    for (const bad of ["has space", "naïve-id", "", "x".repeat(129), "semi;colon"]) {
      const r = await register(a, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.code).toBe("invalid_identity");
      if (bad.length > 0) expect(r.text).not.toContain(bad);
    }
    expect((await register(a, "x".repeat(128))).status).toBe(201);
    expect((await register(a, "A-z0.9_:x")).status).toBe(201);
  });

  it("refuses missing, mismatched, unknown, foreign, revoked and expired sessions with stable codes", async () => {
    const a = await seedAccount(t().db, { role: "member" });
    const other = await seedAccount(t().db);
    const id = uniq("live");
    await register(a, id);
    const missingParent = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { ...bearer(a.apiKey), "x-codesynapse-session": id } });
    expect([missingParent.status, missingParent.body.error.code]).toEqual([400, "invalid_session_header"]);
    const none = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: bearer(a.apiKey) });
    expect([none.status, none.body.error.code]).toEqual([400, "invalid_session_header"]);
    const mismatch = await whoami(a, id, uniq("other"));
    expect([mismatch.status, mismatch.body.error.code]).toEqual([400, "invalid_session_header"]);
    const unknownId = uniq("never-registered");
    const unknown = await whoami(a, unknownId);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "session_not_found"]);
    expect(unknown.text).not.toContain(unknownId);
    expect((await whoami(other, id)).status).toBe(403);
    const noAuth = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { "x-codesynapse-session": id, "x-codesynapse-parent-session": id } });
    expect(noAuth.status).toBe(401);

    const revoked = uniq("revoked");
    await register(a, revoked);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${revoked}`, { headers: bearer(a.apiKey) })).status).toBe(204);
    const r = await whoami(a, revoked);
    expect([r.status, r.body.error.code]).toEqual([410, "session_revoked"]);
    expect(r.text).not.toContain(revoked);
  });

  it("expires exactly 7 days after registration, whatever the use, and tombstones forever", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const id = uniq("week");
    const start = clock.now().getTime();
    await register(a, id);
    for (let d = 1; d < 7; d++) {
      clock.set(start + d * DAY);
      expect((await whoami(a, id)).status).toBe(200);
      expect((await register(a, id)).status).toBe(200);
    }
    clock.set(start + BINDING_TTL_MS - 1);
    expect((await whoami(a, id)).status).toBe(200);
    clock.set(start + BINDING_TTL_MS);
    const expired = await whoami(a, id);
    expect([expired.status, expired.body.error.code]).toEqual([410, "session_expired"]);
    const row = await t().db.selectFrom("session_bindings").selectAll().where("session_id", "=", id).executeTakeFirstOrThrow();
    expect(row.tombstone_reason).toBe("expired");
    // Nobody can ever register it again.
    expect((await register(a, id)).body.error.code).toBe("session_expired");
    expect((await register(b, id)).body.error.code).toBe("session_claimed");
    clock.advance(365 * DAY);
    expect((await register(a, id)).status).toBe(410);
    clock.set(start);
  });

  it("a revoked ID can never be registered or used again, by anyone", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const id = uniq("gone");
    await register(a, id);
    await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(a.apiKey) });
    expect((await register(a, id)).body.error.code).toBe("session_revoked");
    expect((await register(b, id)).body.error.code).toBe("session_claimed");
    expect((await whoami(a, id)).status).toBe(410);
    // Revoking again is a no-op; a stranger's DELETE reveals nothing.
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(a.apiKey) })).status).toBe(204);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(b.apiKey) })).status).toBe(404);
  });

  it("an org admin may revoke a member's session; another member may not", async () => {
    const member = await seedAccount(t().db);
    const peer = await seedAccount(t().db, { orgId: member.orgId, role: "member" });
    const admin = await seedAccount(t().db, { orgId: member.orgId, role: "admin" });
    const id = uniq("team");
    await register(member, id);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(peer.apiKey) })).status).toBe(404);
    expect((await whoami(member, id)).status).toBe(200);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(admin.apiKey) })).status).toBe(204);
    expect((await whoami(member, id)).status).toBe(410);
  });

  it("membership removal or user suspension after registration fails the next request", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("m");
    await register(a, id);
    expect((await whoami(a, id)).status).toBe(200);
    await removeMember(identityStore(t().db), { orgId: a.orgId, userId: a.userId });
    expect((await whoami(a, id)).status).toBe(403);
    await addMember(identityStore(t().db), { orgId: a.orgId, userId: a.userId, role: "member" });
    expect((await whoami(a, id)).status).toBe(200);
    await suspendUser(identityStore(t().db), { userId: a.userId, at: clock.now() });
    const r = await whoami(a, id);
    expect([r.status, r.body.error.code]).toEqual([403, "user_suspended"]);
  });

  it("50 concurrent registrations of one new ID by two users: exactly one owner", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const id = uniq("race");
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => register(i % 2 ? a : b, id)));
    const winners = new Set(results.filter((r) => r.status === 201 || r.status === 200).map((r) => r.body.subject_id));
    expect(winners.size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const loser = [...winners][0] === a.userId ? b : a;
    expect(results.filter((r) => r.status === 409).length).toBe(25);
    expect((await whoami(loser, id)).status).toBe(403);
    const rows = await t().db.selectFrom("session_bindings").selectAll().where("session_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it(`1,100 concurrent registrations in one org leave exactly ${MAX_ACTIVE_BINDINGS_PER_ORG} active`, async () => {
    const a = await seedAccount(t().db);
    const principal = { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null };
    const settled = await Promise.allSettled(
      Array.from({ length: 1100 }, (_, i) => registerSession(identityStore(t().db), clock, principal, `bulk-${a.orgId}-${i}`)),
    );
    const ok = settled.filter((s) => s.status === "fulfilled").length;
    const refused = settled.filter((s) => s.status === "rejected");
    expect(ok).toBe(MAX_ACTIVE_BINDINGS_PER_ORG);
    expect(refused).toHaveLength(1100 - MAX_ACTIVE_BINDINGS_PER_ORG);
    for (const r of refused) expect((r as PromiseRejectedResult).reason.details).toEqual({ limit: "active_sessions_per_org", max: MAX_ACTIVE_BINDINGS_PER_ORG });
    const active = await t().db.selectFrom("session_bindings").select(sql<string>`count(*)`.as("n")).where("org_id", "=", a.orgId).executeTakeFirstOrThrow();
    expect(Number(active.n)).toBe(MAX_ACTIVE_BINDINGS_PER_ORG);
    // Revoking one frees one active slot.
    await revokeSession(identityStore(t().db), clock, { ...principal, role: "member" }, `bulk-${a.orgId}-0`);
    expect((await register(a, uniq("after-revoke"))).status).toBe(201);
    expect((await register(a, uniq("one-too-many"))).body.error.details).toEqual({ limit: "active_sessions_per_org", max: MAX_ACTIVE_BINDINGS_PER_ORG });
  });

  it("the retained limit refuses registration even after revocations (tombstones are never deleted)", async () => {
    const a = await seedAccount(t().db);
    // Fill the org with retained tombstones, leaving room for exactly one more binding.
    await sql`insert into session_bindings (session_id, org_id, user_id, kind, created_at, expires_at, tombstoned_at, tombstone_reason)
      select ${a.orgId} || '-old-' || g, ${a.orgId}, ${a.userId}, 'runtime', ${clock.now()}, ${clock.now()}, ${clock.now()}, 'revoked'
      from generate_series(1, ${MAX_RETAINED_BINDINGS_PER_ORG - 1}) g`.execute(t().db);
    const last = uniq("last");
    expect((await register(a, last)).status).toBe(201);
    await call(srv.url, "DELETE", `/api/v1/execution/sessions/${last}`, { headers: bearer(a.apiKey) });
    const r = await register(a, uniq("no-room"));
    expect([r.status, r.body.error.code, r.body.error.details]).toEqual([422, "limit_exceeded", { limit: "retained_sessions_per_org", max: MAX_RETAINED_BINDINGS_PER_ORG }]);
    const count = await t().db.selectFrom("session_bindings").select(sql<string>`count(*)`.as("n")).where("org_id", "=", a.orgId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(MAX_RETAINED_BINDINGS_PER_ORG);
  });

  it("the identity a route handler sees is frozen and bound: it cannot be mutated or replaced", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("frozen");
    await register(a, id);
    const ctx = testContext(t().db, { clock });
    const app = express();
    const attempts: Record<string, string> = {};
    app.get("/probe", requireExecution(ctx), (req, res) => {
      const e = executionOf(req);
      const tryIt = (name: string, fn: () => void) => {
        try {
          fn();
          attempts[name] = "allowed";
        } catch {
          attempts[name] = "refused";
        }
      };
      tryIt("mutate field", () => ((e.identity as any).session_id = "evil"));
      tryIt("replace identity", () => ((e as any).identity = { ...e.identity, session_id: "evil" }));
      tryIt("replace execution", () => ((req as any).execution = { identity: { session_id: "evil" } }));
      tryIt("rebind context", () => e.context.bind({ ...e.identity, session_id: "evil", parent_session_id: "evil" } as any));
      tryIt("rebind frozen other", () => e.context.bind(Object.freeze({ ...e.identity, session_id: "evil", parent_session_id: "evil" })));
      res.json({ seen: executionOf(req).identity.session_id, implicit: requireIdentity(currentExecution()).session_id });
    });
    app.use(errorMiddleware(ctx.logger));
    const probe = await listen(app);
    try {
      const r = await call(probe.url, "GET", "/probe", { headers: headersFor(a, id) });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ seen: id, implicit: id });
      expect(attempts).toEqual({
        "mutate field": "refused", "replace identity": "refused", "replace execution": "refused",
        "rebind context": "refused", "rebind frozen other": "refused",
      });
    } finally {
      await probe.close();
    }
  });

  it("a browser sign-in gets its dashboard binding: per sign-in, per window, unreachable after sign-out, never a fallback", async () => {
    const a = await seedAccount(t().db);
    const signIn = async () => {
      const r = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
      return (r.headers.get("set-cookie") ?? "").split(";")[0]!;
    };
    const cookie = await signIn();
    const first = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie } });
    expect(first.status).toBe(200);
    expect(first.body.session_id).toMatch(/^web:[0-9a-f]{64}$/);
    expect((await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie } })).body.session_id).toBe(first.body.session_id);
    const binding = await t().db.selectFrom("session_bindings").selectAll().where("session_id", "=", first.body.session_id).executeTakeFirstOrThrow();
    expect([binding.kind, binding.user_id, binding.org_id]).toEqual(["dashboard", a.userId, a.orgId]);

    const cookie2 = await signIn();
    const second = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie: cookie2 } });
    expect(second.body.session_id).not.toBe(first.body.session_id);

    // Naming an unregistered session never falls back to the dashboard binding.
    const named = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie, "x-codesynapse-session": "unregistered-x", "x-codesynapse-parent-session": "unregistered-x" } });
    expect(named.status).toBe(404);
    // An API key never gets a dashboard binding.
    expect((await call(srv.url, "GET", "/api/v1/execution/identity", { headers: bearer(a.apiKey) })).status).toBe(400);

    // At the window boundary a long sign-in moves to a new ID; the old binding lives out its 7 days.
    const saved = clock.now().getTime();
    const nextWindow = (Math.floor(saved / BINDING_TTL_MS) + 1) * BINDING_TTL_MS;
    clock.set(nextWindow);
    const moved = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie } });
    expect(moved.status).toBe(200);
    expect(moved.body.session_id).not.toBe(first.body.session_id);
    const old = await t().db.selectFrom("session_bindings").selectAll().where("session_id", "=", first.body.session_id).executeTakeFirstOrThrow();
    expect(old.tombstoned_at).toBeNull();
    expect(old.expires_at.getTime()).toBeGreaterThan(nextWindow);
    clock.set(saved);

    await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie, origin: srv.url } });
    expect((await call(srv.url, "GET", "/api/v1/execution/identity", { headers: { cookie } })).status).toBe(401);
    // Naming the old dashboard ID with another credential of the same user is refused too (it belongs to the sign-in).
    const viaKey = await whoami(a, first.body.session_id);
    expect([viaKey.status, viaKey.body.error.code]).toEqual([403, "dashboard_session_named"]);
  });

  it("records an audit trail and never writes rejected IDs to the logs", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const id = uniq("audited");
    await register(a, id);
    await register(a, id);
    await register(b, id);
    const rejected = [uniq("secret-probe"), id];
    await whoami(b, rejected[0]!);
    await whoami(b, id);
    await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(a.apiKey) });
    const actions = await t().db.selectFrom("audit_log").select(["action", "outcome", "session_target", "org_id"]).where("org_id", "in", [a.orgId, b.orgId]).orderBy("id").execute();
    expect(actions.map((x) => `${x.action}:${x.outcome}`)).toEqual([
      "session.register:ok", "session.register_repeat:ok", "session.claim_refused:refused", "session.revoke:ok",
    ]);
    expect(actions.find((x) => x.outcome === "refused")!.session_target).toBeNull();
    const logs = logLines.join("\n");
    for (const r of rejected) expect(logs).not.toContain(r);
  });
});

/**
 * HTTP-3, REG-8: the dashboard binding belongs to the one browser sign-in it was derived from. It is
 * implicit only: naming a `web:` ID in the execution headers is refused for every credential (an API
 * key, another sign-in of the same user, the same sign-in), and sign-out tombstones it at once.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { authorize } from "../../core/authorize";
import { ManualClock } from "../../core/clock";
import { registerSession } from "../../core/registry/registry";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, executionHeaders, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";

await describeEachDatabase("dashboard binding", (t) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 12, 0, 0));
  let srv: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db, { clock })));
  });
  afterAll(() => srv.close());

  const signIn = async (a: Account) => {
    const r = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(r.status).toBe(200);
    return (r.headers.get("set-cookie") ?? "").split(";")[0]!;
  };
  const identity = (headers: Record<string, string>) => call(srv.url, "GET", "/api/v1/execution/identity", { headers });
  const naming = (id: string) => ({ "x-codesynapse-session": id, "x-codesynapse-parent-session": id });

  it("a web: ID named in the execution headers is refused for every credential, audited, never echoed", async () => {
    const a = await seedAccount(t().db);
    const cookie = await signIn(a);
    const web = (await identity({ cookie })).body.session_id as string;
    expect(web).toMatch(/^web:[0-9a-f]{64}$/);
    const otherCookie = await signIn(a);
    for (const [who, headers] of [
      ["api key", executionHeaders(a.apiKey, web)],
      ["another sign-in", { cookie: otherCookie, ...naming(web) }],
      ["the same sign-in", { cookie, ...naming(web) }],
    ] as const) {
      const r = await identity(headers);
      expect([r.status, r.body?.error?.code], who).toEqual([403, "dashboard_session_named"]);
      expect(r.text, who).not.toContain(web.slice(4));
    }
    // An unknown web: ID is refused the same way (no probing whether one exists).
    const unknown = await identity(executionHeaders(a.apiKey, `web:${"0".repeat(64)}`));
    expect([unknown.status, unknown.body.error.code]).toEqual([403, "dashboard_session_named"]);
    // Registering a web: ID as a runtime session is refused as well.
    const reg = await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), body: { session_id: `web:${uniq("x")}` } });
    expect([reg.status, reg.body.error.code]).toEqual([403, "dashboard_session_named"]);

    const audited = await t().db.selectFrom("audit_log").select(["action", "outcome", "session_target", "details"]).where("actor_user_id", "=", a.userId)
      .where("action", "=", "session.dashboard_refused").execute();
    expect(audited.length).toBe(5);
    for (const row of audited) {
      expect([row.outcome, row.session_target]).toEqual(["refused", null]);
      expect(JSON.stringify(row.details)).not.toContain(web.slice(4));
    }
    // The sign-in it belongs to still reaches it implicitly.
    expect((await identity({ cookie })).body.session_id).toBe(web);
  });

  it("resolution compares the recorded sign-in: another sign-in or an API key of the same user is refused", async () => {
    const a = await seedAccount(t().db);
    await signIn(a);
    const row = await t().db.selectFrom("login_sessions").select("id").where("user_id", "=", a.userId).executeTakeFirstOrThrow();
    const other = await signIn(a);
    expect(other).not.toBe("");
    const rows = await t().db.selectFrom("login_sessions").select("id").where("user_id", "=", a.userId).execute();
    const otherId = rows.find((r) => r.id !== row.id)!.id;
    const web = `web:${"a".repeat(64)}`;
    await registerSession(identityStore(t().db), clock, { orgId: a.orgId, userId: a.userId, apiKeyId: null, loginSessionId: row.id }, web, { kind: "dashboard" });
    const owner = { orgId: a.orgId, userId: a.userId, apiKeyId: null, loginSessionId: row.id };
    expect((await authorize(identityStore(t().db), clock, owner, web)).identity.session_id).toBe(web);
    for (const p of [{ ...owner, loginSessionId: otherId }, { ...owner, loginSessionId: null, apiKeyId: a.keyId }]) {
      await expect(authorize(identityStore(t().db), clock, p, web)).rejects.toMatchObject({ code: "session_forbidden" });
    }
  });

  it("sign-out makes the dashboard binding unreachable at once: tombstoned, audited", async () => {
    const a = await seedAccount(t().db);
    const cookie = await signIn(a);
    const web = (await identity({ cookie })).body.session_id as string;
    const ls = await t().db.selectFrom("login_sessions").select("id").where("user_id", "=", a.userId).executeTakeFirstOrThrow();
    expect((await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie, origin: srv.url } })).status).toBe(204);
    const b = await t().db.selectFrom("session_bindings").selectAll().where("session_id", "=", web).executeTakeFirstOrThrow();
    expect([b.tombstone_reason, b.tombstoned_at === null]).toEqual(["revoked", false]);
    // Not even the principal it was recorded for (a job of that sign-in) reaches it: its credential
    // ended with it, and who asks is settled before what they ask for (core/authorize-rules.ts).
    const owner = { orgId: a.orgId, userId: a.userId, apiKeyId: null, loginSessionId: ls.id };
    await expect(authorize(identityStore(t().db), clock, owner, web)).rejects.toMatchObject({ code: "login_session_ended" });
    expect((await identity({ cookie })).status).toBe(401);
    const r = await identity(executionHeaders(a.apiKey, web));
    expect([r.status, r.body.error.code]).toEqual([403, "dashboard_session_named"]);
    const revoked = await t().db.selectFrom("audit_log").select(["action", "session_target"]).where("actor_user_id", "=", a.userId)
      .where("action", "=", "session.revoke").execute();
    expect(revoked).toEqual([{ action: "session.revoke", session_target: web }]);
  });
});

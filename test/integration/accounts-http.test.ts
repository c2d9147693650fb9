import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { revokeApiKey } from "../../core/accounts/api-keys";
import { suspendMember, suspendOrg, suspendUser } from "../../core/accounts/accounts";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";

await describeEachDatabase("accounts over HTTP", (t) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db)));
  });
  afterAll(() => srv.close());

  it("GET /api/v1/me names the org and user of a valid key, and leaks no key material", async () => {
    const a = await seedAccount(t().db);
    const r = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user: { id: a.userId, email: a.email }, organization: { id: a.orgId }, auth: "api_key", role: "member" });
    expect(r.text).not.toContain(a.apiKey);
    expect(r.text).not.toContain(a.keyPrefix);
  });

  it("refuses missing, malformed and unknown keys with stable codes", async () => {
    expect((await call(srv.url, "GET", "/api/v1/me")).body.error.code).toBe("unauthenticated");
    const malformed = await call(srv.url, "GET", "/api/v1/me", { headers: { authorization: "Bearer not-a-key" } });
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.code).toBe("invalid_credentials");
    expect(malformed.text).not.toContain("not-a-key");
    const basic = await call(srv.url, "GET", "/api/v1/me", { headers: { authorization: "Basic abc" } });
    expect(basic.status).toBe(401);
    const a = await seedAccount(t().db);
    const forged = a.apiKey.slice(0, -4) + "AAAA";
    const r = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(forged) });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("invalid_credentials");
    expect(r.text).not.toContain(forged);
  });

  it("a revoked key, a suspended user, membership or org are refused on the next request", async () => {
    const db = t().db;
    const now = new Date();
    const cases: Array<[string, (a: Awaited<ReturnType<typeof seedAccount>>) => Promise<unknown>, number, string]> = [
      ["revoked key", (a) => revokeApiKey(identityStore(db), { prefix: a.keyPrefix, at: now }), 401, "api_key_revoked"],
      ["suspended user", (a) => suspendUser(identityStore(db), { userId: a.userId, at: now }), 403, "user_suspended"],
      ["suspended membership", (a) => suspendMember(identityStore(db), { orgId: a.orgId, userId: a.userId, at: now }), 403, "membership_suspended"],
      ["suspended org", (a) => suspendOrg(identityStore(db), { orgId: a.orgId, at: now }), 403, "org_suspended"],
    ];
    for (const [name, act, status, code] of cases) {
      const a = await seedAccount(db);
      expect((await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) })).status, name).toBe(200);
      await act(a);
      const r = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) });
      expect([r.status, r.body.error.code], name).toEqual([status, code]);
      expect(r.text).not.toContain(a.apiKey);
    }
  });

  it("login sets an HttpOnly SameSite cookie that /me accepts; logout ends it", async () => {
    const a = await seedAccount(t().db);
    const bad = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: "wrong password" } });
    expect([bad.status, bad.body.error.code]).toEqual([401, "invalid_credentials"]);
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(login.status).toBe(200);
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = setCookie.split(";")[0]!;
    const me = await call(srv.url, "GET", "/api/v1/me", { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { id: a.userId }, organization: { id: a.orgId }, auth: "browser" });
    expect((await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie, origin: srv.url } })).status).toBe(204);
    const after = await call(srv.url, "GET", "/api/v1/me", { headers: { cookie } });
    expect([after.status, after.body.error.code]).toEqual([401, "login_session_ended"]);
  });

  it("a session cookie is judged as sent: never percent-decoded, so its length limit holds on the wire", async () => {
    const a = await seedAccount(t().db);
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    const token = (login.headers.get("set-cookie") ?? "").split(";")[0]!.split("=")[1]!;
    // 1,026 characters sent that would decode to 1,024: over the declared limit as sent, so refused.
    const long = "%41%41" + "A".repeat(1020);
    const refused = await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie: `cs_session=${long}`, origin: srv.url } });
    expect([refused.status, refused.body.error.code]).toEqual([400, "validation_failed"]);
    // The same token percent-encoded is another value: it does not sign in, and the real one still does.
    const encoded = [...token].map((c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")).join("");
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie: `cs_session=${encoded}` } })).status).toBe(401);
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie: `cs_session=${token}` } })).status).toBe(200);
  });

  it("a browser user in two orgs must select one with X-CodeSynapse-Org", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const { addMember } = await import("../../core/accounts/accounts");
    await addMember(identityStore(t().db), { orgId: b.orgId, userId: a.userId, role: "admin" });
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie } })).body.error.code).toBe("org_selection_required");
    const chosen = await call(srv.url, "GET", "/api/v1/me", { headers: { cookie, "x-codesynapse-org": b.orgId } });
    expect(chosen.body).toMatchObject({ organization: { id: b.orgId }, role: "admin" });
    const foreign = await seedAccount(t().db);
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie, "x-codesynapse-org": foreign.orgId } })).body.error.code).toBe("not_a_member");
  });

  it("rejects unknown fields, malformed JSON and oversize bodies before any work", async () => {
    const unknown = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: "a@b.c", password: "x", extra: 1 } });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "validation_failed"]);
    const broken = await call(srv.url, "POST", "/api/v1/auth/login", { rawBody: "{not json" });
    expect([broken.status, broken.body.error.code]).toEqual([400, "validation_failed"]);
    const huge = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: "a@b.c", password: "x".repeat(300 * 1024) } });
    expect([huge.status, huge.body.error.code]).toEqual([413, "payload_too_large"]);
  });

  it("health and readiness answer", async () => {
    expect((await call(srv.url, "GET", "/healthz")).body).toEqual({ status: "ok" });
    expect((await call(srv.url, "GET", "/readyz")).body).toEqual({ status: "ready", checks: { database: "ok" } });
    expect((await call(srv.url, "GET", "/nope")).status).toBe(404);
  });
});

describe("config", () => {
  it("names the bad variable", async () => {
    const { loadConfig, ConfigError } = await import("../../core/config");
    expect(() => loadConfig({ DATABASE_URL: "nonsense" })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: "nonsense", PORT: "x" });
    } catch (e) {
      expect((e as InstanceType<typeof ConfigError>).variables.sort()).toEqual(["DATABASE_URL", "PORT"]);
      expect((e as Error).message).toContain("DATABASE_URL");
    }
  });
});

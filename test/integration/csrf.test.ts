/**
 * CSRF: a cookie-authenticated unsafe request must be same-origin — Sec-Fetch-Site
 * same-origin/none when sent, else an Origin equal to PUBLIC_ORIGIN (unset: the request's own Host);
 * neither header on a cookie request is refused. API-key requests are unaffected; safe methods too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { ConfigError, loadConfig } from "../../core/config";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";

const EVIL = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

await describeEachDatabase("CSRF on cookie-authenticated unsafe requests", (t) => {
  let srv: TestServer;
  let pinned: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db)));
    pinned = await listen(createApp(testContext(t().db, { env: { PUBLIC_ORIGIN: "https://app.example" } })));
  });
  afterAll(async () => {
    await srv.close();
    await pinned.close();
  });

  const signIn = async (a: Account, base = srv.url) => {
    const r = await call(base, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(r.status).toBe(200);
    return (r.headers.get("set-cookie") ?? "").split(";")[0]!;
  };
  const register = (base: string, headers: Record<string, string>, id = uniq("csrf")) =>
    call(base, "POST", "/api/v1/execution/sessions", { headers, body: { session_id: id } });
  const bound = async (id: string) => (await t().db.selectFrom("session_bindings").select("session_id").where("session_id", "=", id).executeTakeFirst()) !== undefined;

  it("refuses a cross-site cookie POST (the reported case) with 403 csrf_refused, before any work, without echoing the origin", async () => {
    const a = await seedAccount(t().db);
    const cookie = await signIn(a);
    const id = uniq("evil");
    const r = await register(srv.url, { cookie, ...EVIL }, id);
    expect([r.status, r.body.error.code]).toEqual([403, "csrf_refused"]);
    expect(r.text).not.toContain("evil.example");
    expect(await bound(id)).toBe(false);
    for (const [what, headers] of [
      ["same-site", { "sec-fetch-site": "same-site", origin: srv.url }],
      ["cross-site with our own Origin", { "sec-fetch-site": "cross-site", origin: srv.url }],
      ["foreign Origin only", { origin: "https://evil.example" }],
      ["opaque Origin", { origin: "null" }],
      ["neither header", {}],
      ["another port of the same host", { origin: "http://127.0.0.1:1" }],
    ] as const) {
      const x = await register(srv.url, { cookie, ...headers });
      expect([x.status, x.body?.error?.code], what).toEqual([403, "csrf_refused"]);
    }
    // DELETE is unsafe too: a cross-site revocation does nothing.
    const mine = uniq("mine");
    expect((await register(srv.url, { cookie, origin: srv.url }, mine)).status).toBe(201);
    const del = await call(srv.url, "DELETE", `/api/v1/execution/sessions/${mine}`, { headers: { cookie, ...EVIL } });
    expect([del.status, del.body.error.code]).toEqual([403, "csrf_refused"]);
    const row = await t().db.selectFrom("session_bindings").select("tombstoned_at").where("session_id", "=", mine).executeTakeFirstOrThrow();
    expect(row.tombstoned_at).toBeNull();
    // Sign-out is a cookie POST as well.
    expect((await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie, ...EVIL } })).status).toBe(403);
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie } })).status).toBe(200);
  });

  it("accepts same-origin cookie requests: Sec-Fetch-Site same-origin or none, or an Origin of this host", async () => {
    const a = await seedAccount(t().db);
    const cookie = await signIn(a);
    expect((await register(srv.url, { cookie, "sec-fetch-site": "same-origin", origin: "https://ignored.example" })).status).toBe(201);
    expect((await register(srv.url, { cookie, "sec-fetch-site": "none" })).status).toBe(201);
    expect((await register(srv.url, { cookie, origin: srv.url })).status).toBe(201);
    // Safe methods are not refused, whatever their origin.
    expect((await call(srv.url, "GET", "/api/v1/me", { headers: { cookie, ...EVIL } })).status).toBe(200);
    expect((await call(srv.url, "POST", "/api/v1/auth/logout", { headers: { cookie, origin: srv.url } })).status).toBe(204);
  });

  it("API-key requests are unaffected by Origin and Sec-Fetch-Site", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("key");
    expect((await register(srv.url, { ...bearer(a.apiKey), ...EVIL }, id)).status).toBe(201);
    // A cookie next to the key does not change that: the key is the credential.
    const cookie = await signIn(a);
    expect((await register(srv.url, { ...bearer(a.apiKey), cookie, ...EVIL })).status).toBe(201);
  });

  it("with PUBLIC_ORIGIN configured, only that origin is same-origin (not the Host the request names)", async () => {
    const a = await seedAccount(t().db);
    const cookie = await signIn(a, pinned.url);
    expect((await register(pinned.url, { cookie, origin: "https://app.example" })).status).toBe(201);
    const byHost = await register(pinned.url, { cookie, origin: pinned.url });
    expect([byHost.status, byHost.body.error.code]).toEqual([403, "csrf_refused"]);
  });

  it("a cross-site sign-in is refused too (login CSRF); a plain API client without the headers signs in", async () => {
    const a = await seedAccount(t().db);
    const r = await call(srv.url, "POST", "/api/v1/auth/login", { headers: EVIL, body: { email: a.email, password: a.password } });
    expect([r.status, r.body.error.code]).toEqual([403, "csrf_refused"]);
    expect(r.headers.get("set-cookie")).toBeNull();
    await signIn(a);
  });
});

describe("PUBLIC_ORIGIN configuration", () => {
  it("takes an http(s) origin and refuses anything else, naming the variable", () => {
    expect(loadConfig({}, { PUBLIC_ORIGIN: "https://app.example/" }).PUBLIC_ORIGIN).toBe("https://app.example");
    expect(loadConfig({}, { PUBLIC_ORIGIN: "http://localhost:8080" }).PUBLIC_ORIGIN).toBe("http://localhost:8080");
    expect(loadConfig({}).PUBLIC_ORIGIN).toBeUndefined();
    for (const bad of ["ftp://app.example", "https://app.example/dashboard", "app.example", "https://u:p@app.example", "https://app.example/?x=1"]) {
      let err: unknown;
      try {
        loadConfig({}, { PUBLIC_ORIGIN: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual(["PUBLIC_ORIGIN"]);
    }
  });
});

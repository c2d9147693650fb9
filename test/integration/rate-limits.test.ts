/**
 * Rate limits, set low through the configuration: sign-in per account+client and
 * per client with a growing block that a success resets (a victim on another client is never locked
 * out), registration per organisation, uploads per session, MCP initialize per API key. Every refusal
 * is 429 `rate_limited` with `Retry-After`, and quotes nothing of the request.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { ConfigError, loadConfig } from "../../core/config";
import { createRateLimits } from "../../core/rate-limit";
import { redisLimiterStore } from "../../db/redis-rate-limits";
import { describeWithService, probeService } from "../support/services";
import { describeEachDatabase } from "../support/databases";
import { fixtureTar } from "../support/archives";
import { FIXTURE_FILES } from "../support/fixture-repo";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type JsonResponse, type TestServer } from "../support/http";
import { testContext } from "../support/app";

const LOW = {
  TRUST_PROXY: "loopback",
  RATE_LIMIT_LOGIN_FAILURES: "3",
  RATE_LIMIT_LOGIN_IP_FAILURES: "8",
  RATE_LIMIT_LOGIN_BLOCK_S: "1",
  RATE_LIMIT_LOGIN_MAX_BLOCK_S: "4",
  RATE_LIMIT_REGISTER_PER_MIN: "3",
  RATE_LIMIT_UPLOADS_PER_MIN: "2",
  RATE_LIMIT_MCP_INITIALIZE_PER_MIN: "2",
};

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

function expectLimited(r: JsonResponse, limit: string, maxRetry: number): number {
  expect(r.status).toBe(429);
  const code = r.body?.error?.data?.code ?? r.body?.error?.code; // MCP: JSON-RPC error, our code in data
  expect(code).toBe("rate_limited");
  const retry = Number(r.headers.get("retry-after"));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(maxRetry);
  if (r.body?.error?.details) expect(r.body.error.details.limit).toBe(limit);
  return retry;
}

await describeEachDatabase("rate limits", (t) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await listen(createApp(testContext(t().db, { env: LOW })));
  });
  afterAll(() => srv.close());

  const login = (a: Account, password: string, ip: string) =>
    call(srv.url, "POST", "/api/v1/auth/login", { headers: { "x-forwarded-for": ip }, body: { email: a.email, password } });

  it("sign-in per account+client: a growing block after consecutive failures, reset by a success; another client is not locked out", async () => {
    const a = await seedAccount(t().db);
    const attacker = "203.0.113.10";
    for (let i = 0; i < 3; i++) expect((await login(a, "wrong password", attacker)).status).toBe(401);
    // Blocked now, even with the right password, for the first block (1 s).
    const blocked = await login(a, a.password, attacker);
    expect(expectLimited(blocked, "login_per_account_client", 1)).toBe(1);
    expect(blocked.text).not.toContain(a.email);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    // The victim, on its own client, signs in all along.
    expect((await login(a, a.password, "198.51.100.7")).status).toBe(200);
    // After the block, one more failure blocks again, for twice as long.
    await sleep(1100);
    expect((await login(a, "wrong password", attacker)).status).toBe(401);
    expect(expectLimited(await login(a, a.password, attacker), "login_per_account_client", 2)).toBe(2);
    await sleep(2100);
    // A success resets the count and the growth: three free failures again, then the first block.
    expect((await login(a, a.password, attacker)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login(a, "wrong password", attacker)).status).toBe(401);
    expect(expectLimited(await login(a, a.password, attacker), "login_per_account_client", 1)).toBe(1);
  });

  it("sign-in per client: failures spread over many accounts block that client, not others", async () => {
    const accounts = await Promise.all(Array.from({ length: 9 }, () => seedAccount(t().db)));
    const sprayer = "203.0.113.20";
    for (const a of accounts.slice(0, 8)) expect((await login(a, "wrong password", sprayer)).status).toBe(401);
    expectLimited(await login(accounts[8]!, accounts[8]!.password, sprayer), "login_per_client", 1);
    expect((await login(accounts[8]!, accounts[8]!.password, "203.0.113.21")).status).toBe(200);
  });

  it("registration per organisation", async () => {
    const a = await seedAccount(t().db);
    const sameOrg = await seedAccount(t().db, { orgId: a.orgId });
    const other = await seedAccount(t().db);
    const reg = (x: Account, id = uniq("rl")) => call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(x.apiKey), body: { session_id: id } });
    for (let i = 0; i < 2; i++) expect((await reg(a)).status).toBe(201);
    expect((await reg(sameOrg)).status).toBe(201);
    const id = uniq("refused");
    const r = await reg(sameOrg, id);
    expectLimited(r, "registrations_per_org", 60);
    expect(r.text).not.toContain(id);
    expect(await t().db.selectFrom("session_bindings").select("session_id").where("session_id", "=", id).executeTakeFirst()).toBeUndefined();
    expect((await reg(other)).status).toBe(201);
  });

  it("uploads per session", async () => {
    const a = await seedAccount(t().db);
    const archive = await fixtureTar(FIXTURE_FILES);
    const one = await registerThread(srv.url, a.apiKey);
    const upload = (h: Record<string, string>) => call(srv.url, "POST", `/api/v1/repos/${a.repoName}/uploads`, { headers: h, rawBody: archive });
    for (let i = 0; i < 2; i++) expect((await upload(one.headers)).status).toBe(201);
    expectLimited(await upload(one.headers), "uploads_per_session", 60);
    const two = await registerThread(srv.url, a.apiKey);
    expect((await upload(two.headers)).status).toBe(201);
  });

  it("MCP initialize per API key", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const init = (x: Account) =>
      call(srv.url, "POST", "/mcp", { headers: { ...bearer(x.apiKey), accept: "application/json, text/event-stream" }, body: INIT });
    for (let i = 0; i < 2; i++) expect((await init(a)).status).toBe(200);
    const r = await init(a);
    expectLimited(r, "mcp_initialize_per_key", 60);
    expect(r.body.jsonrpc).toBe("2.0");
    expect((await init(b)).status).toBe(200);
  });
});

describe("rate-limit configuration", () => {
  it("has defaults the ordinary suite does not reach, and refuses bad values naming the variable", () => {
    const c = loadConfig({});
    expect([c.RATE_LIMIT_LOGIN_FAILURES, c.RATE_LIMIT_LOGIN_IP_FAILURES, c.RATE_LIMIT_REGISTER_PER_MIN, c.RATE_LIMIT_UPLOADS_PER_MIN, c.RATE_LIMIT_MCP_INITIALIZE_PER_MIN])
      .toEqual([5, 50, 1000, 30, 120]);
    expect(c.TRUST_PROXY).toBe(false);
    expect(loadConfig({}, { TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(loadConfig({}, { TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8"]);
    for (const [name, bad] of [
      ["RATE_LIMIT_LOGIN_FAILURES", "0"], ["RATE_LIMIT_LOGIN_BLOCK_S", "-1"], ["RATE_LIMIT_REGISTER_PER_MIN", "many"], ["TRUST_PROXY", "everyone"], ["TRUST_PROXY", "true"],
    ] as const) {
      let err: unknown;
      try {
        loadConfig({}, { [name]: bad });
      } catch (e) {
        err = e;
      }
      expect(err, `${name}=${bad}`).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual([name]);
    }
  });
});

describeWithService(await probeService("redis"), "rate limits shared through Redis", () => {
  it("two API nodes on one Redis share the counts: the limit holds across nodes", async () => {
    const config = loadConfig({}, { RATE_LIMIT_REGISTER_PER_MIN: "3", RATE_LIMIT_LOGIN_FAILURES: "2", RATE_LIMIT_LOGIN_BLOCK_S: "5" });
    const url = (await probeService("redis")).url!;
    const [one, two] = [createRateLimits(config, redisLimiterStore(url)), createRateLimits(config, redisLimiterStore(url))];
    try {
      await sleep(200); // connected (before that, the in-memory insurance limiter answers)
      const org = uniq("org");
      await one.registrations.consume(org);
      await two.registrations.consume(org);
      await one.registrations.consume(org);
      await expect(two.registrations.consume(org)).rejects.toMatchObject({ code: "rate_limited", details: { limit: "registrations_per_org" } });
      const email = `${uniq("u")}@example.test`;
      await one.login.failed(email, "192.0.2.1");
      await two.login.failed(email, "192.0.2.1");
      await expect(one.login.check(email, "192.0.2.1")).rejects.toMatchObject({ code: "rate_limited", details: { retry_after_s: 5 } });
      await two.login.succeeded(email, "192.0.2.1");
      await one.login.check(email, "192.0.2.1");
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

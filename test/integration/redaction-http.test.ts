/**
 * Issue 12, redaction: the user's secrets — `DB_PASSWORD=…`, `OPENAI_API_KEY=sk-proj-…`,
 * `STRIPE_SECRET_KEY=sk_live_…`, `AWS_SESSION_TOKEN=…`, `redis://:password@host` — sent through
 * the real session-memory HTTP API as fact names, as a source and in an offload turn, then
 * promoted to repository memory: no secret value can be read back, is stored, or is logged.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { pino } from "pino";
import { createApp } from "../../api/app";
import type { MemoryServices } from "../../core/memory/services";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { testContextWithMemory } from "../support/app";

// Real formats, fake values, built at run time so that this file itself holds no literal secret.
const j = (...parts: string[]) => parts.join("");
const dbPassword = j("Pg-", "hunter2-", "9f3kQ");
const openai = j("sk-", "proj-", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7cD0eFgH2jK4mN6pQ8sT0vX");
const stripe = j("sk_", "live_", "51HqLyjWDarjtT1zdp7dcXy0aBcDeFgHiJkLmNoP");
const awsSession = j("IQoJb3JpZ2lu", "X2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6bcu1Lb3ZRFx7ZZxp9+2ofy0fG7hQ1v3XkQ8dBcGkLwIgQ5YfTzX+9b0aUe3ZgTnR7Q=");
const redisPassword = j("r3dis", "Pass", "W0rd");
const SECRETS = [dbPassword, openai, stripe, awsSession, redisPassword];
const EXAMPLES = [
  `DB_PASSWORD=${dbPassword}`,
  `OPENAI_API_KEY=${openai}`,
  `STRIPE_SECRET_KEY=${stripe}`,
  `AWS_SESSION_TOKEN=${awsSession}`,
  `redis://:${redisPassword}@cache.internal:6379`,
];

await describeEachDatabase("redaction over the session-memory HTTP API", (t) => {
  let srv: TestServer;
  let memory: MemoryServices;
  let logs = "";

  beforeAll(async () => {
    const logger = pino({ level: "trace" }, { write: (s: string) => void (logs += s) });
    const ctx = testContextWithMemory(t().db, { logger });
    memory = ctx.memory;
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv.close());

  it("the user's secrets as fact names, a source and an offload turn are never readable back, stored or logged", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const h = (await registerThread(srv.url, a.apiKey)).headers;
    const sm = (suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;
    const logStart = logs.length;

    // As fact subject names (and objects), with all of them as the source.
    const w = await call(srv.url, "POST", sm(), {
      headers: h,
      body: { triples: EXAMPLES.map((e, i) => ({ subject: e, predicate: "configures", object: `Service${i}` })), source: `.env pasted: ${EXAMPLES.join(" ")}` },
    });
    expect(w.status).toBe(200);
    expect(w.body.facts).toHaveLength(EXAMPLES.length);

    // In an offload turn, next to a relation the extractor keeps.
    const off = await call(srv.url, "POST", sm("/offload"), {
      headers: h,
      body: { turns: [{ role: "user", content: `PaymentService calls StripeClient. My env is:\n${EXAMPLES.join("\n")}\nand CacheWorker uses redis://:${redisPassword}@cache.internal:6379 daily.` }] },
    });
    expect(off.status).toBe(202);
    await memory.offload.drain();

    const read = await call(srv.url, "GET", `${sm()}?limit=100`, { headers: h });
    expect(read.status).toBe(200);
    const names = read.body.entities.map((e: any) => e.name);
    // The names stay useful: what the secret was for survives, the value does not.
    expect(names).toEqual(
      expect.arrayContaining([
        "DB_PASSWORD=[REDACTED:credential]",
        "OPENAI_API_KEY=[REDACTED:openai_api_key]",
        "STRIPE_SECRET_KEY=[REDACTED:stripe_key]",
        "AWS_SESSION_TOKEN=[REDACTED:aws_session_token]",
        "redis://:[REDACTED:url_password]@cache.internal:6379",
      ]),
    );
    expect(read.body.facts.map((f: any) => `${f.subject.name} ${f.predicate} ${f.object.name}`)).toContain("PaymentService calls StripeClient");
    expect(read.body.facts.find((f: any) => f.source?.startsWith(".env pasted")).source).toContain("DB_PASSWORD=[REDACTED:credential]");
    const recall = await call(srv.url, "POST", sm("/recall"), { headers: h, body: { query: "DB_PASSWORD OPENAI_API_KEY redis cache" } });
    expect(recall.status).toBe(200);
    expect(recall.body.results.length).toBeGreaterThan(0);

    // Promoted to repository memory: the durable copies are masked too.
    const p = await call(srv.url, "POST", sm("/promote"), { headers: h, body: { fact_ids: w.body.facts.map((f: any) => f.fact_id) } });
    expect(p.status).toBe(200);
    const durable = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/recall`, { headers: h, body: { query: "DB_PASSWORD STRIPE_SECRET_KEY AWS_SESSION_TOKEN" } });
    expect(durable.status).toBe(200);
    expect(durable.body.results.length).toBeGreaterThan(0);

    const rows = JSON.stringify([
      await t().db.selectFrom("session_memory_entities").selectAll().where("tenant_id", "=", a.orgId).execute(),
      await t().db.selectFrom("session_memory_facts").selectAll().where("tenant_id", "=", a.orgId).execute(),
      await t().db.selectFrom("session_memory_scopes").selectAll().where("tenant_id", "=", a.orgId).execute(),
      await t().db.selectFrom("repo_nodes").selectAll().where("repo_id", "=", a.repoId).execute(),
      await t().db.selectFrom("repo_edges").selectAll().where("repo_id", "=", a.repoId).execute(),
    ]);
    for (const secret of SECRETS) {
      expect(read.text).not.toContain(secret);
      expect(recall.text).not.toContain(secret);
      expect(durable.text).not.toContain(secret);
      expect(rows).not.toContain(secret);
      expect(logs.slice(logStart)).not.toContain(secret);
    }
  });
});

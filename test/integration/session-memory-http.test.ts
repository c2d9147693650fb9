import { afterAll, beforeAll, expect, it } from "vitest";
import { pino } from "pino";
import { createApp } from "../../api/app";
import { grantRepo } from "../../core/accounts/accounts";
import { MAX_FACTS_PER_NAMESPACE } from "../../core/limits";
import type { MemoryServices } from "../../core/memory/services";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { testContextWithMemory } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";

await describeEachDatabase("session memory over HTTP", (t) => {
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

  const session = async (a: Account): Promise<Record<string, string>> => (await registerThread(srv.url, a.apiKey)).headers;
  const sm = (a: Account, suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;
  const triple = (s: string, p: string, o: string) => ({ subject: s, predicate: p, object: o });

  it("two sessions of the same user in the same repository never see each other's facts", async () => {
    const a = await seedAccount(t().db);
    const h1 = await session(a);
    const h2 = await session(a);
    const w1 = await call(srv.url, "POST", sm(a), { headers: h1, body: { triples: [{ ...triple("AuthService", "depends_on", "TokenStore"), subject_type: "class", object_type: "class" }] } });
    expect(w1.status).toBe(200);
    expect(w1.body.facts[0]).toMatchObject({ predicate: "depends_on" });
    expect(w1.body.facts[0].fact_id).toMatch(/^sf_/);
    await call(srv.url, "POST", sm(a), { headers: h2, body: { triples: [triple("BillingJob", "uses", "Stripe")] } });
    const r1 = await call(srv.url, "GET", sm(a), { headers: h1 });
    expect(r1.body.facts.map((f: any) => f.subject.name)).toEqual(["AuthService"]);
    expect(r1.body.facts[0].subject).toEqual({ id: w1.body.facts[0].subject_id, name: "AuthService", type: "class" });
    const r2 = await call(srv.url, "GET", `${sm(a)}?q=auth`, { headers: h2 });
    expect(r2.body.facts).toEqual([]);
    const rec = await call(srv.url, "POST", sm(a, "/recall"), { headers: h2, body: { query: "AuthService TokenStore" } });
    expect(rec.body.results.map((x: any) => x.subject.name)).not.toContain("AuthService");
    const rec1 = await call(srv.url, "POST", sm(a, "/recall"), { headers: h1, body: { query: "what does the auth service depend on" } });
    expect(rec1.body.results[0]).toMatchObject({ predicate: "depends_on", subject: { name: "AuthService" }, object: { name: "TokenStore" } });
    expect(typeof rec1.body.results[0].score).toBe("number");
    // Promoting another session's fact ID is refused as unknown.
    const steal = await call(srv.url, "POST", sm(a, "/promote"), { headers: h2, body: { fact_ids: [w1.body.facts[0].fact_id] } });
    expect([steal.status, steal.body.error.code]).toEqual([404, "not_found"]);
    expect(steal.text).not.toContain(w1.body.facts[0].fact_id);
  });

  it("a 513th fact and a snapshot over 24 KiB are refused naming the limit, with nothing half-written", async () => {
    const a = await seedAccount(t().db);
    const h = await session(a);
    const side = 23;
    const triples = Array.from({ length: MAX_FACTS_PER_NAMESPACE }, (_, i) => triple(`a${Math.floor(i / side)}`, "r", `b${i % side}`));
    for (let i = 0; i < triples.length; i += 256) {
      const w = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: triples.slice(i, i + 256) } });
      expect(w.status).toBe(200);
    }
    const over = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("x1", "r", "y1"), triple("x2", "r", "y2")] } });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: "limit_exceeded", details: { limit: "facts_per_namespace", max: 512 } });
    expect(over.body.error.message).toContain("facts_per_namespace");
    const read = await call(srv.url, "GET", `${sm(a)}?limit=1024`, { headers: h });
    expect(read.body.facts).toHaveLength(MAX_FACTS_PER_NAMESPACE);
    expect(read.body.entities.map((e: any) => e.name)).not.toContain("x1");

    const b = await seedAccount(t().db);
    const hb = await session(b);
    await call(srv.url, "POST", sm(b), { headers: hb, body: { triples: [triple("Small", "uses", "Thing")] } });
    const big = Array.from({ length: 110 }, (_, i) => triple(`Entity${i}_${"n".repeat(240)}`, "uses", "Thing"));
    const tooBig = await call(srv.url, "POST", sm(b), { headers: hb, body: { triples: big } });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.details).toEqual({ limit: "snapshot_bytes", max: 24576 });
    const after = await call(srv.url, "GET", sm(b), { headers: hb });
    expect(after.body.facts.map((f: any) => f.subject.name)).toEqual(["Small"]);
    expect(after.body.revision).toBe(1);
  });

  it("after DELETE /session-memory the namespace refuses writes and reads for good; other repositories are open", async () => {
    const a = await seedAccount(t().db);
    const h = await session(a);
    await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("A", "calls", "B")] } });
    expect((await call(srv.url, "DELETE", sm(a), { headers: h })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const w = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("A", "calls", "B")] } });
      expect([w.status, w.body.error.code]).toEqual([410, "namespace_closed"]);
    }
    expect((await call(srv.url, "GET", sm(a), { headers: h })).body.error.code).toBe("namespace_closed");
    expect((await call(srv.url, "DELETE", sm(a), { headers: h })).status).toBe(200);
    const other = await seedAccount(t().db, { orgId: a.orgId });
    await grantRepo(identityStore(t().db), { repoId: other.repoId, userId: a.userId, level: "read" });
    const ok = await call(srv.url, "POST", `/api/v1/repos/${other.repoName}/session-memory`, { headers: h, body: { triples: [triple("A", "calls", "B")] } });
    expect(ok.status).toBe(200);
  });

  it("a promoted fact survives deletion of the session memory; promotion needs repository write", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const h = await session(a);
    const w = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("LedgerService", "writes", "JournalTable"), triple("Noise", "uses", "Other")] } });
    const id = w.body.facts[0].fact_id;
    const p = await call(srv.url, "POST", sm(a, "/promote"), { headers: h, body: { fact_ids: [id] } });
    expect(p.status).toBe(200);
    expect(p.body.promoted).toHaveLength(1);
    expect(p.body.promoted[0]).toMatch(/^rf_/);
    // Session facts stay after promotion.
    expect((await call(srv.url, "GET", sm(a), { headers: h })).body.facts).toHaveLength(2);
    expect((await call(srv.url, "DELETE", sm(a), { headers: h })).status).toBe(200);
    const rec = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/recall`, { headers: h, body: { query: "ledger journal" } });
    expect(rec.status).toBe(200);
    expect(rec.body.results.map((r: any) => [r.fact_id, r.subject.name, r.predicate, r.object.name])).toEqual([[p.body.promoted[0], "LedgerService", "writes", "JournalTable"]]);
    const row = await t().db.selectFrom("repo_edges").select(["origin_session_id", "label"]).where("id", "=", p.body.promoted[0]).executeTakeFirstOrThrow();
    expect(row).toEqual({ origin_session_id: h["x-codesynapse-session"], label: "FACT" });
    // A reader of the repository (same org) sees it too, and cannot promote.
    const reader = await seedAccount(t().db, { orgId: a.orgId, repoId: a.repoId, repoLevel: "read" });
    const hr = await session(reader);
    const rr = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/recall`, { headers: hr, body: { query: "LedgerService" } });
    expect(rr.body.results).toHaveLength(1);
    await call(srv.url, "POST", sm(reader), { headers: hr, body: { triples: [triple("X", "uses", "Y")] } });
    const mine = (await call(srv.url, "GET", sm(reader), { headers: hr })).body.facts[0].fact_id;
    const denied = await call(srv.url, "POST", sm(reader, "/promote"), { headers: hr, body: { fact_ids: [mine] } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "repo_permission_denied"]);
    const durable = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/triples`, { headers: hr, body: { triples: [triple("X", "uses", "Y")] } });
    expect(durable.status).toBe(403);
  });

  it("an offloaded turn with an AWS key id or a ghp_ token never reaches the store or the logs", async () => {
    const a = await seedAccount(t().db);
    const h = await session(a);
    const ghp = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0";
    const akid = "AKIA" + "ZXCVBNMASDFGHJKL";
    const logStart = logs.length;
    const r = await call(srv.url, "POST", sm(a, "/offload"), {
      headers: h,
      body: {
        turns: [
          { role: "user", content: `DeployScript uses ${ghp} to push. The key ${akid} is in CiConfig.` },
          { role: "assistant", content: `Noted: PaymentService calls StripeClient, and UploadJob uses ${akid}.` },
        ],
      },
    });
    expect(r.status).toBe(202);
    await memory.offload.drain();
    const read = await call(srv.url, "GET", sm(a), { headers: h });
    expect(read.body.facts.map((f: any) => `${f.subject.name} ${f.predicate} ${f.object.name}`)).toContain("PaymentService calls StripeClient");
    const rows = JSON.stringify([
      await t().db.selectFrom("session_memory_entities").selectAll().where("tenant_id", "=", a.orgId).execute(),
      await t().db.selectFrom("session_memory_facts").selectAll().where("tenant_id", "=", a.orgId).execute(),
      await t().db.selectFrom("session_memory_scopes").selectAll().where("tenant_id", "=", a.orgId).execute(),
    ]);
    for (const secret of [ghp, akid]) {
      expect(rows).not.toContain(secret);
      expect(logs.slice(logStart)).not.toContain(secret);
      expect(read.text).not.toContain(secret);
    }
    expect(logs.slice(logStart)).not.toContain("DeployScript");
  });

  it("needs execution headers and repository permission; bodies are strict; the old offload endpoint is gone", async () => {
    const a = await seedAccount(t().db);
    const h = await session(a);
    const noHeaders = await call(srv.url, "GET", sm(a), { headers: bearer(a.apiKey) });
    expect([noHeaders.status, noHeaders.body.error.code]).toEqual([400, "invalid_session_header"]);
    const stranger = await seedAccount(t().db);
    const foreign = await call(srv.url, "GET", `/api/v1/repos/${stranger.repoId}/session-memory`, { headers: h });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "repo_not_found"]);
    const extra = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("A", "calls", "B")], ns: "other" } });
    expect([extra.status, extra.body.error.code]).toEqual([400, "validation_failed"]);
    const badPredicate = await call(srv.url, "POST", sm(a), { headers: h, body: { triples: [triple("A", "Calls", "B")] } });
    expect(badPredicate.status).toBe(400);
    const tooMany = await call(srv.url, "POST", sm(a, "/promote"), { headers: h, body: { fact_ids: Array.from({ length: 51 }, (_, i) => `sf_${i}`) } });
    expect(tooMany.status).toBe(400);
    const old = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/offload`, { headers: h, body: { turns: [] } });
    expect([old.status, old.body.error.code]).toEqual([410, "gone"]);
  });
});

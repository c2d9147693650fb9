/**
 * What a thread's memory learns from offloaded turns, over HTTP as a runtime sees it: durable
 * statements (rules, decisions, locations) become facts citing their turns; chatter does not; a
 * correction supersedes what it corrects (recall answers the new value, history and as_of keep the
 * old one); a repeat adds nothing; a turn ID may not be a session ID; and an offload whose binding
 * is revoked while it is extracted stores nothing.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { ManualClock } from "../../core/clock";
import type { Identity } from "../../core/execution/identity";
import { LocalExtractor, type Turn } from "../../core/memory/extractor";
import { OffloadQueue } from "../../core/memory/offload";
import { memoryCleaner, type MemoryServices } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { testContextWithMemory } from "../support/app";

/** The local extractor, held at a gate until the test opens it (to revoke a binding mid-extraction). */
class GatedExtractor extends LocalExtractor {
  gate: Promise<void> = Promise.resolve();
  override async extract(identity: Identity, turns: Turn[], signal?: AbortSignal) {
    await this.gate;
    return super.extract(identity, turns, signal);
  }
}

await describeEachDatabase("offload extraction over HTTP", (t) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 4, 9));
  let srv: TestServer;
  let memory: MemoryServices;
  const extractor = new GatedExtractor();

  beforeAll(async () => {
    const ctx = testContextWithMemory(t().db, { clock });
    memory = ctx.memory;
    memory.offload = new OffloadQueue({ engine: memory.sessions, extractor });
    ctx.cleaners = new SessionCleaners().register(memoryCleaner(memory, clock));
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv.close());

  const sm = (a: Account, suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;
  const facts = async (a: Account, h: Record<string, string>, asOf?: string) =>
    (await call(srv.url, "GET", `${sm(a)}?limit=500${asOf ? `&as_of=${encodeURIComponent(asOf)}` : ""}`, { headers: h })).body as {
      facts: Array<{ fact_id: string; subject: { name: string }; predicate: string; object: { name: string; type: string }; source?: string }>;
      extraction: Record<string, number>;
    };
  const offload = async (a: Account, h: Record<string, string>, turns: Array<{ role: string; content: string; id?: string }>) => {
    const r = await call(srv.url, "POST", sm(a, "/offload"), { headers: h, body: { turns } });
    expect(r.status).toBe(202);
    await memory.offload.drain();
    return r.body as { accepted: number; offload_id: string };
  };

  it("the removed repository offload route answers 410 gone and names its replacement; nothing is stored", async () => {
    const a = await seedAccount(t().db);
    const { headers: h } = await registerThread(srv.url, a.apiKey);
    const r = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/offload`, { headers: h, body: { turns: [{ role: "user", content: "Never deploy on Fridays." }] } });
    expect(r.status).toBe(410);
    expect(r.body).toMatchObject({ error: { code: "gone" } });
    expect(JSON.stringify(r.body)).toContain("/session-memory/offload");
    expect((await facts(a, h)).facts).toEqual([]);
  });

  it("keeps rules, decisions and locations as facts citing their turns, and no chatter", async () => {
    const a = await seedAccount(t().db);
    const { headers: h } = await registerThread(srv.url, a.apiKey);
    const r = await offload(a, h, [
      { role: "user", content: "hey! quick one", id: "u-1" },
      { role: "assistant", content: "Sure, let me check the repo.", id: "a-1" },
      { role: "user", content: "Team rule: never run database migrations on Fridays.", id: "u-2" },
      { role: "assistant", content: "The login handler lives in src/auth/login.ts." },
      { role: "user", content: "thanks!!" },
    ]);
    expect(r.offload_id).toMatch(/^of_[0-9a-f]{12}$/);
    const read = await facts(a, h);
    const texts = read.facts.map((f) => f.object.name);
    expect(texts).toContain("Team rule: never run database migrations on Fridays.");
    expect(texts).toContain("The login handler lives in src/auth/login.ts.");
    expect(texts.join(" ")).not.toMatch(/quick one|let me check|thanks/i);
    const rule = read.facts.find((f) => f.object.name.includes("Fridays"))!;
    expect([rule.predicate, rule.object.type, rule.source]).toEqual(["rule", "statement", "offload turn u-2"]);
    const where = read.facts.find((f) => f.object.name.includes("login.ts") && f.object.type === "statement")!;
    expect(where.source).toBe(`offload ${r.offload_id} turn 4`);
    expect(read.extraction).toMatchObject({ offloads: 1, turns: 5, stored: 2, dropped: 0 });
    const rec = await call(srv.url, "POST", sm(a, "/recall"), { headers: h, body: { query: "When must migrations not be run?", limit: 3 } });
    expect(rec.body.results[0].object.name).toContain("Fridays");
  });

  it("a correction supersedes what it corrects: recall answers the new value, history and as_of keep the old; a repeat adds nothing", async () => {
    const a = await seedAccount(t().db);
    const { headers: h } = await registerThread(srv.url, a.apiKey);
    await offload(a, h, [
      { role: "assistant", content: "Access tokens are signed with HS256 using the JWT_SECRET env var." },
      { role: "user", content: "The access token TTL is 1 hour." },
    ]);
    const before = clock.now().toISOString();
    const old = (await facts(a, h)).facts.find((f) => f.object.name.includes("HS256"))!;
    clock.advance(60_000);
    await offload(a, h, [
      { role: "user", content: "that's outdated: access tokens are signed with ES256 now, not HS256." },
      { role: "user", content: "and the access token TTL is 15 minutes now, not 1 hour" },
    ]);
    const now = await facts(a, h);
    const texts = now.facts.map((f) => f.object.name);
    expect(texts.some((x) => x.includes("ES256"))).toBe(true);
    expect(texts.some((x) => x.includes("15 minutes"))).toBe(true);
    // Each correction replaced its own statement, not the other's.
    expect(texts.some((x) => x.includes("HS256 using"))).toBe(false);
    expect(texts.some((x) => x.includes("TTL is 1 hour"))).toBe(false);
    expect(now.extraction.superseded).toBe(2);
    const rec = await call(srv.url, "POST", sm(a, "/recall"), { headers: h, body: { query: "How are access tokens signed?", limit: 5 } });
    const recalled = rec.body.results.map((x: any) => x.object.name).join("\n");
    expect(recalled).toContain("ES256");
    expect(recalled).not.toContain("HS256 using");
    const hist = await call(srv.url, "GET", sm(a, `/facts/${old.fact_id}/history`), { headers: h });
    expect(hist.status).toBe(200);
    expect(hist.body.versions.at(-1)).toMatchObject({ status: "superseded", object: { name: old.object.name } });
    expect(hist.body.versions.at(-1).replaced_by).toHaveLength(1);
    expect((await facts(a, h, before)).facts.map((f) => f.object.name)).toContain(old.object.name);

    // The same statement again, in a later call, is no second fact; its source cites both turns.
    const again = await offload(a, h, [{ role: "user", content: "and the access token TTL is 15 minutes now, not 1 hour", id: "t-9" }]);
    const after = await facts(a, h);
    expect(after.facts.length).toBe(now.facts.length);
    expect(after.extraction.repeats).toBe(1);
    expect(after.facts.find((f) => f.object.name.includes("15 minutes"))!.source).toMatch(/turn 2; turn t-9$/);
    expect(again.accepted).toBe(1);
  });

  it("a turn ID may not be a session ID: refused without echoing it, nothing queued", async () => {
    const a = await seedAccount(t().db);
    const th = await registerThread(srv.url, a.apiKey);
    const r = await call(srv.url, "POST", sm(a, "/offload"), { headers: th.headers, body: { turns: [{ role: "user", content: "Never deploy on Fridays.", id: th.session }] } });
    expect([r.status, r.body.error.code, r.body.error.details?.field]).toEqual([400, "validation_failed", "turns.0.id"]);
    expect(r.text).not.toContain(th.session);
    await memory.offload.drain();
    expect((await facts(a, th.headers)).facts).toEqual([]);
  });

  it("an offload whose binding is revoked while it is extracted stores nothing", async () => {
    const a = await seedAccount(t().db);
    const th = await registerThread(srv.url, a.apiKey);
    let open!: () => void;
    extractor.gate = new Promise<void>((r) => (open = r));
    try {
      const r = await call(srv.url, "POST", sm(a, "/offload"), { headers: th.headers, body: { turns: [{ role: "user", content: "We decided to use Redis streams for the notification queue." }] } });
      expect(r.status).toBe(202);
      expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${th.session}`, { headers: bearer(a.apiKey) })).status).toBe(204);
    } finally {
      open();
      extractor.gate = Promise.resolve();
    }
    await memory.offload.drain();
    expect(memory.offload.outcomes.at(-1)).toEqual({ refused: "session_revoked" });
    const rows = await t().db.selectFrom("session_memory_facts").select("fact_id").where("tenant_id", "=", a.orgId).execute();
    expect(rows).toEqual([]);
  });
});

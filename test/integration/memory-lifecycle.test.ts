/**
 * The life of a thread's memory as an agent runtime sees it, over HTTP:
 * learn → contradict → recall answers only the current fact → as_of answers
 * the old one → history shows both → export → import into a new thread →
 * erase (clear with a receipt; revoke) → nothing of either thread is left in
 * any table (read directly: entities, facts, namespace docs holding history,
 * vectors).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { ManualClock } from "../../core/clock";
import { memoryCleaner, type MemoryServices } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import type { Db } from "../../db/schema";
import { buildMemoryServices } from "../../main/memory";
import { describeEachDatabase } from "../support/databases";
import { grantRepo } from "../../core/accounts/accounts";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { testContext } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";

async function left(db: Db, tenant: string, session: string): Promise<Record<string, number>> {
  const r = await sql<Record<string, string | number>>`
    select
      (select count(*) from session_memory_entities where tenant_id = ${tenant} and session_id = ${session}) as entities,
      (select count(*) from session_memory_facts where tenant_id = ${tenant} and session_id = ${session}) as facts,
      (select count(*) from session_memory_scopes where tenant_id = ${tenant} and session_id = ${session} and doc <> '{}'::jsonb) as docs,
      (select count(*) from session_memory_vectors where tenant_id = ${tenant} and session_id = ${session}) as vectors`.execute(db);
  return Object.fromEntries(Object.entries(r.rows[0]!).map(([k, v]) => [k, Number(v)]));
}

await describeEachDatabase("session memory that changes: learn, contradict, recall, as_of, history, export, import, erase", (t) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 3, 9));
  let srv: TestServer;
  let memory: MemoryServices;
  beforeAll(async () => {
    const ctx = testContext(t().db, { clock });
    memory = buildMemoryServices(ctx.config, t().db, clock, ctx.logger);
    ctx.memory = memory;
    ctx.cleaners = new SessionCleaners().register(memoryCleaner(memory, clock));
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv.close());

  it("an agent's thread corrects a fact, looks back in time, moves its memory to a new thread, then erases it", async () => {
    const a = await seedAccount(t().db);
    const one = await registerThread(srv.url, a.apiKey);
    const sm = (suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;
    const line = (f: any) => `${f.subject.name} ${f.predicate} ${f.object.name}`;

    // Learn: the token algorithm is single-valued for this thread.
    const learned = await call(srv.url, "POST", sm(), {
      headers: one.headers,
      body: { triples: [{ subject: "AuthService", predicate: "signs_tokens_with", object: "RS256" }, { subject: "AuthService", predicate: "depends_on", object: "TokenStore" }], single_valued: ["signs_tokens_with"] },
    });
    expect(learned.status).toBe(200);
    const rs = learned.body.facts[0].fact_id as string;
    const learnedAt = clock.now().toISOString();
    clock.advance(30 * 60_000);

    // Contradict: a later turn says ES256.
    const fixed = await call(srv.url, "POST", sm(), { headers: one.headers, body: { triples: [{ subject: "AuthService", predicate: "signs_tokens_with", object: "ES256" }] } });
    expect(fixed.body.superseded).toEqual([rs]);
    const es = fixed.body.facts[0].fact_id as string;
    clock.advance(60_000);

    // Recall answers only the current fact.
    const now = await call(srv.url, "POST", sm("/recall"), { headers: one.headers, body: { query: "which algorithm does AuthService sign tokens with" } });
    expect(now.body.results.map(line)).toContain("AuthService signs_tokens_with ES256");
    expect(now.body.results.map(line)).not.toContain("AuthService signs_tokens_with RS256");
    // as_of answers what the thread believed then.
    const then = new Date(Date.parse(learnedAt) + 10 * 60_000).toISOString();
    const old = await call(srv.url, "POST", sm("/recall"), { headers: one.headers, body: { query: "which algorithm does AuthService sign tokens with", as_of: then } });
    expect(old.body.results.map(line)).toContain("AuthService signs_tokens_with RS256");
    expect(old.body.results.map(line)).not.toContain("AuthService signs_tokens_with ES256");
    const read = await call(srv.url, "GET", `${sm()}?as_of=${encodeURIComponent(then)}`, { headers: one.headers });
    expect(read.body.facts.map(line).sort()).toEqual(["AuthService depends_on TokenStore", "AuthService signs_tokens_with RS256"]);

    // History shows both.
    const h = await call(srv.url, "GET", sm(`/facts/${rs}/history`), { headers: one.headers });
    expect(h.status).toBe(200);
    expect(h.body.versions).toEqual([expect.objectContaining({ status: "superseded", valid_from: learnedAt, replaced_by: [es], session_id: one.session })]);
    const hn = await call(srv.url, "GET", sm(`/facts/${es}/history`), { headers: one.headers });
    expect(hn.body.versions).toEqual([expect.objectContaining({ status: "current", valid_to: null })]);

    // Export, import into a new thread of the same user.
    const exported = await call(srv.url, "GET", sm("/export"), { headers: one.headers });
    expect(exported.body).toMatchObject({ format: "codesynapse.session-memory/1", entities: 4, facts: 2, history: 1 });
    const two = await registerThread(srv.url, a.apiKey);
    const imported = await call(srv.url, "POST", sm("/import"), { headers: two.headers, body: { jsonl: exported.body.jsonl } });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ entities: 4, facts: 2, history: 1 });
    const there = await call(srv.url, "GET", sm(), { headers: two.headers });
    expect(there.body.facts.map(line).sort()).toEqual(["AuthService depends_on TokenStore", "AuthService signs_tokens_with ES256"]);
    // The imported thread's IDs are its own; the history came along with its origin session.
    expect(there.body.facts.map((f: any) => f.fact_id)).not.toContain(es);
    const esTwo = there.body.facts.find((f: any) => f.object.name === "ES256").fact_id;
    const wasThen = await call(srv.url, "GET", `${sm()}?as_of=${encodeURIComponent(then)}`, { headers: two.headers });
    const rsTwo = wasThen.body.facts.find((f: any) => f.object.name === "RS256").fact_id;
    const h2 = await call(srv.url, "GET", sm(`/facts/${rsTwo}/history`), { headers: two.headers });
    expect(h2.body.versions).toEqual([expect.objectContaining({ status: "superseded", replaced_by: [esTwo], session_id: one.session })]);
    // The single-valued declaration came along too.
    await call(srv.url, "POST", sm(), { headers: two.headers, body: { triples: [{ subject: "AuthService", predicate: "signs_tokens_with", object: "EdDSA" }] } });
    expect((await call(srv.url, "GET", sm(), { headers: two.headers })).body.facts.map(line).sort()).toEqual([
      "AuthService depends_on TokenStore",
      "AuthService signs_tokens_with EdDSA",
    ]);

    // Erase: the new thread clears its namespace (a receipt), the first thread is revoked.
    expect(await left(t().db, a.orgId, two.session)).toMatchObject({ entities: 5, facts: 2, docs: 1 });
    const receipt = await call(srv.url, "DELETE", sm(), { headers: two.headers });
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ scope: "namespace", session_id: two.session, done: true });
    expect(receipt.body.stores).toEqual([
      { store: `graph:${memory.store.kind}`, entities: 5, facts: 2, history: 2, status: "done" },
      { store: `vectors:${memory.vectors.kind}`, entities: 5, facts: 0, history: 0, status: "done" },
      // No AI or fix job of this thread quoted it (test/integration/memory-erasure-jobs.test.ts covers those).
      { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: 0, status: "done" },
      { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: 0, status: "done" },
    ]);
    // Import cannot reopen it.
    const again = await call(srv.url, "POST", sm("/import"), { headers: two.headers, body: { jsonl: exported.body.jsonl } });
    expect([again.status, again.body.error.code]).toEqual([410, "namespace_closed"]);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${one.session}`, { headers: bearer(a.apiKey) })).status).toBe(204);
    for (const s of [one.session, two.session]) expect(await left(t().db, a.orgId, s)).toEqual({ entities: 0, facts: 0, docs: 0, vectors: 0 });
  });

  it("retracting a fact over HTTP: 200 with when, then 404 for the same id; a malformed id is refused before the store", async () => {
    const a = await seedAccount(t().db);
    const th = await registerThread(srv.url, a.apiKey);
    const sm = (suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;
    const w = await call(srv.url, "POST", sm(), { headers: th.headers, body: { triples: [{ subject: "Cache", predicate: "backed_by", object: "Memcached" }] } });
    const id = w.body.facts[0].fact_id;
    const r = await call(srv.url, "DELETE", sm(`/facts/${id}`), { headers: th.headers });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fact_id: id, valid_to: clock.now().toISOString() });
    expect((await call(srv.url, "GET", sm(), { headers: th.headers })).body.facts).toEqual([]);
    const twice = await call(srv.url, "DELETE", sm(`/facts/${id}`), { headers: th.headers });
    expect([twice.status, twice.body.error.code]).toEqual([404, "not_found"]);
    expect(twice.text).not.toContain(id);
    const bad = await call(srv.url, "DELETE", sm("/facts/not-a-fact"), { headers: th.headers });
    expect(bad.status).toBe(400);
    // Another thread of the same user cannot see or retract it.
    const other = await registerThread(srv.url, a.apiKey);
    expect((await call(srv.url, "GET", sm(`/facts/${id}/history`), { headers: other.headers })).status).toBe(404);
  });
  it("a repository admin forgets what one thread promoted: its durable facts and nodes go, a writer may not, a receipt says what went", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const th = await registerThread(srv.url, a.apiKey);
    const other = await registerThread(srv.url, a.apiKey);
    const sm = (h: Record<string, string>, body: unknown) => call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory`, { headers: h, body });
    const w = await sm(th.headers, { triples: [{ subject: "LedgerService", predicate: "writes", object: "JournalTable" }] });
    const p = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory/promote`, { headers: th.headers, body: { fact_ids: [w.body.facts[0].fact_id] } });
    expect(p.status).toBe(200);
    const row = await t().db.selectFrom("repo_edges").select(["props"]).where("id", "=", p.body.promoted[0]).executeTakeFirstOrThrow();
    expect((row.props as { source: string }).source).toContain(`promoted from session fact ${w.body.facts[0].fact_id} of session ${th.session}`);
    const kept = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/triples`, { headers: other.headers, body: { triples: [{ subject: "Billing", predicate: "reads", object: "JournalTable" }] } });
    expect(kept.status).toBe(200);
    const url = `/api/v1/repos/${a.repoId}/memory/forget-session`;
    const denied = await call(srv.url, "POST", url, { headers: th.headers, body: { session_id: th.session } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "repo_permission_denied"]);
    await grantRepo(identityStore(t().db), { repoId: a.repoId, userId: a.userId, level: "admin" });
    const r = await call(srv.url, "POST", url, { headers: other.headers, body: { session_id: th.session } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ scope: "promoted", session_id: th.session, done: true, stores: [
        { store: `repository:${memory.repository.store.kind}`, entities: 1, facts: 1, history: 0, status: "done" },
        { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: 0, status: "done" },
        { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: 0, status: "done" },
        // No other session's AI/fix answer on the repository cites the forgotten fact.
        { store: "jobs:quoting-results", entities: 0, facts: 0, history: 0, rows: 0, status: "done" },
      ],
    });
    const left = await t().db.selectFrom("repo_edges").select(["id", "origin_session_id"]).where("repo_id", "=", a.repoId).execute();
    expect(left.map((e) => e.origin_session_id)).toEqual([other.session]);
    const nodes = await t().db.selectFrom("repo_nodes").select(["name", "origin_session_id"]).where("repo_id", "=", a.repoId).orderBy("name").execute();
    expect(nodes).toEqual([
      { name: "Billing", origin_session_id: other.session },
      { name: "JournalTable", origin_session_id: null },
    ]);
  });
});

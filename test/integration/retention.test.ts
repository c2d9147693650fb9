/**
 * RET-1 end to end: revocation blocks at once and cleans the session's memory
 * in the same request; expiry is swept by the cleanup pool's step; tombstones
 * stop an old worker from recreating data.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { ManualClock } from "../../core/clock";
import { makeIdentity } from "../../core/execution/identity";
import { BINDING_TTL_MS } from "../../core/limits";
import { memoryCleaner, type MemoryServices } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import { sweepSessions } from "../../core/retention/cleanup";
import { silentLogger } from "../../core/log";
import type { Db } from "../../db/schema";
import { describeEachDatabase } from "../support/databases";
import { identityStore } from "../../db/sql/identity/store";
import { seedAccount, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { testContext } from "../support/app";

async function rowsOf(db: Db, tenant: string, session: string): Promise<number> {
  let n = 0;
  for (const table of ["session_memory_entities", "session_memory_facts", "session_memory_vectors"]) {
    const r = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where tenant_id = ${tenant} and session_id = ${session}`.execute(db);
    n += Number(r.rows[0]!.n);
  }
  return n;
}

await describeEachDatabase("retention: revocation and expiry clean session memory", (t) => {
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 9));
  let srv: TestServer;
  let memory: MemoryServices;
  let cleaners: SessionCleaners;
  beforeAll(async () => {
    const ctx = testContext(t().db, { clock });
    memory = buildMemoryServices(ctx.config, t().db, clock, ctx.logger);
    cleaners = new SessionCleaners().register(memoryCleaner(memory, clock));
    ctx.memory = memory;
    ctx.cleaners = cleaners;
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv.close());

  async function threadWithFacts(a: Account): Promise<{ id: string; headers: Record<string, string>; expiresAt: string }> {
    const { session: id, headers, expiresAt } = await registerThread(srv.url, a.apiKey);
    const w = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/session-memory`, {
      headers,
      body: { triples: [{ subject: "AuthService", predicate: "depends_on", object: "TokenStore" }, { subject: "TokenStore", predicate: "stores_in", object: "Redis" }] },
    });
    expect(w.status).toBe(200);
    return { id, headers, expiresAt };
  }

  it("revocation blocks at once, removes the session's memory, and an old worker cannot recreate it", async () => {
    const a = await seedAccount(t().db);
    const { id, headers, expiresAt } = await threadWithFacts(a);
    const other = await threadWithFacts(a);
    expect(await rowsOf(t().db, a.orgId, id)).toBeGreaterThan(0);
    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${id}`, { headers: bearer(a.apiKey) })).status).toBe(204);
    expect(await rowsOf(t().db, a.orgId, id)).toBe(0);
    expect((await call(srv.url, "GET", `/api/v1/repos/${a.repoId}/session-memory`, { headers })).status).toBe(410);
    // An old worker that still holds the identity writes straight to the engine: refused by the memory tombstone.
    const identity = makeIdentity({ tenant_id: a.orgId, subject_id: a.userId, session_id: id, parent_session_id: id });
    await expect(
      memory.sessions.upsert({ identity, ns: a.repoId, expiresAt: new Date(expiresAt) }, { triples: [{ subject: "Zombie", predicate: "uses", object: "Data" }] }),
    ).rejects.toMatchObject({ code: "session_revoked" });
    expect(await rowsOf(t().db, a.orgId, id)).toBe(0);
    // The other thread is untouched.
    expect((await call(srv.url, "GET", `/api/v1/repos/${a.repoId}/session-memory`, { headers: other.headers })).body.facts).toHaveLength(2);
  });

  it("the cleanup step tombstones expired bindings and purges their memory in bounded batches", async () => {
    const a = await seedAccount(t().db);
    const { id } = await threadWithFacts(a);
    expect(await rowsOf(t().db, a.orgId, id)).toBeGreaterThan(0);
    const saved = clock.now().getTime();
    clock.set(saved + BINDING_TTL_MS + 60_000);
    try {
      const sweep = await sweepSessions(t().db, identityStore(t().db), clock, cleaners, silentLogger(), { limit: 1, batchesPerSession: 100 });
      expect(sweep.expired).toBeGreaterThanOrEqual(1);
      expect(sweep.done.map((x) => x.session_id)).toContain(id);
      expect(await rowsOf(t().db, a.orgId, id)).toBe(0);
      const b = await t().db.selectFrom("session_bindings").select(["tombstone_reason"]).where("session_id", "=", id).executeTakeFirstOrThrow();
      expect(b.tombstone_reason).toBe("expired");
    } finally {
      clock.set(saved);
    }
  });
});

/**
 * Session vectors in PostgreSQL/PGlite (db/vector/local-postgres.ts): stored
 * as float4 bytea and scored exactly in process; with the process cache (the
 * embedded default) a search after any write or delete sees that write — from
 * this instance or another on the same database.
 */
import { expect, it } from "vitest";
import { repoFactId, repoNodeId } from "../../core/memory/ids";
import { PostgresRepositoryStore } from "../../db/graph/postgres/repository-store";
import { decodeVector, encodeVector, PostgresVectorRows } from "../../db/vector/local-postgres";
import { seedAccount } from "../support/fixtures";
import { describeEachDatabase } from "../support/databases";

await describeEachDatabase("session vector rows", (t) => {
  const key = { tenant_id: "org-v", session_id: `s-${Math.random().toString(36).slice(2)}`, ns: "repo-v" };
  const rec = (id: string, vector: number[]) => ({ key, id, model: "m", vector, expires_at: Date.now() + 60_000 });

  it("float4 bytea round-trips; exact cosine ranks; a cached scope never serves rows older than the last write or delete", async () => {
    expect(Array.from(decodeVector(encodeVector([1, -0.5, 0.25])))).toEqual([1, -0.5, 0.25]);
    const a = new PostgresVectorRows(t().db, { processCache: true });
    const b = new PostgresVectorRows(t().db, { processCache: true });
    await a.put([rec("x", [1, 0]), rec("y", [0, 1])]);
    const first = await a.nearest(key, "m", Date.now(), [1, 0.1], 10);
    expect(first.map((h) => h.id)).toEqual(["x", "y"]);
    expect(first[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 6);
    // Another instance rewrites y to point the query's way: the next search (cached scope) sees it.
    await b.put([rec("y", [1, 0.1])]);
    expect((await a.nearest(key, "m", Date.now(), [1, 0.1], 10)).map((h) => h.id)).toEqual(["y", "x"]);
    // Another length never matches; expired rows are not served.
    expect(await a.nearest(key, "m", Date.now(), [1, 0, 0], 10)).toEqual([]);
    expect(await a.nearest(key, "m", Date.now() + 120_000, [1, 0.1], 10)).toEqual([]);
    await b.deleteScope(key);
    expect(await a.nearest(key, "m", Date.now(), [1, 0.1], 10)).toEqual([]);
  });

  it("repository dense recall is scored in SQL: only the nearest hits come back, vectors of another length never match", async () => {
    const { repoId } = await seedAccount(t().db);
    const store = new PostgresRepositoryStore(t().db);
    const node = (name: string) => ({ id: repoNodeId(repoId, "code.function", name), name, type: "code.function" });
    const [a, b, c] = [node("a.ts#near"), node("a.ts#far"), node("a.ts#other")];
    await store.upsertFacts(repoId, [a, b, c].map((o) => ({ fact_id: repoFactId(repoId, a.id, "calls", o.id), subject: a, predicate: "calls", object: o })), { session_id: null }, Date.now());
    await store.setEmbeddings(repoId, "m", [{ id: a.id, vector: [1, 0] }, { id: b.id, vector: [0, 1] }, { id: c.id, vector: [1, 0, 0] }]);
    const hits = await store.nearestEmbeddings(repoId, "m", [1, 0.1], 1, 5000);
    expect(hits.map((h) => h.id)).toEqual([a.id]);
    expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect((await store.nearestEmbeddings(repoId, "m", [1, 0.1], 10, 5000)).map((h) => h.id)).toEqual([a.id, b.id]);
  });
});

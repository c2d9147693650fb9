/**
 * What only a real Neo4j shows (VER-3):
 *  - two workers (two drivers = two connection pools, as two processes would
 *    have) racing the same tenant's live-fact quota from different sessions:
 *    the SessionMemoryTenant lock serializes them and the tenant never goes
 *    over the limit;
 *  - revocation cleanup removes the session's graph and vector data (Neo4j
 *    vectors and, when reachable, Milvus), and the tombstone stops an old
 *    worker — one that read the snapshot before the revocation — from
 *    recreating any of it;
 *  - session records never carry the code graph's `Node` label or `FACT` type.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Driver } from "neo4j-driver";
import { AppError } from "../../core/errors";
import { ManualClock } from "../../core/clock";
import { MAX_FACTS_PER_NAMESPACE, MAX_LIVE_FACTS_PER_TENANT } from "../../core/limits";
import { LocalHashEmbedder } from "../../core/memory/embedder";
import { SessionMemoryEngine } from "../../core/memory/engine";
import { purgeSession, revokeSessionMemory } from "../../core/memory/services";
import type { SessionVectorIndex } from "../../core/memory/vector-index";
import { Neo4jSessionStore } from "../../db/graph/neo4j/session-store";
import { Neo4jVectorIndex } from "../../db/graph/neo4j/vector-index";
import { collectionName, MilvusVectorIndex } from "../../db/vector/milvus";
import { MilvusClient } from "@zilliz/milvus2-sdk-node";
import { describeWithService, probeService } from "../support/services";
import { buildMemoryServices } from "../../main/memory";
import { loadConfig } from "../../core/config";
import { createLogger } from "../../core/log";
import { neo4jFromEnv } from "../support/neo4j";
import { content, identityOf, keyOf, manyTriples, owner, rid } from "../contract/memory-fixtures";

const neo4j = await probeService("neo4j");
const milvus = await probeService("milvus");
const DAY = 24 * 3600 * 1000;

async function count(driver: Driver, query: string, params: Record<string, unknown>): Promise<number> {
  const r = await driver.executeQuery(query, params);
  return Number(r.records[0]!.get("n"));
}

describeWithService(neo4j, "Neo4j session memory on a real server", () => {
  let w1: Driver;
  let w2: Driver;
  let store1: Neo4jSessionStore;
  let store2: Neo4jSessionStore;
  const now = Date.now();
  const exp = now + 7 * DAY;

  beforeAll(async () => {
    w1 = neo4jFromEnv();
    w2 = neo4jFromEnv();
    store1 = new Neo4jSessionStore(w1);
    store2 = new Neo4jSessionStore(w2);
    await store1.ensureSchema();
  });
  afterAll(async () => {
    await w1?.close();
    await w2?.close();
  });

  it("two workers racing one tenant's live-fact quota from different sessions never take it over the limit", async () => {
    const tenant = rid("org");
    const fullNamespaces = Math.floor(MAX_LIVE_FACTS_PER_TENANT / MAX_FACTS_PER_NAMESPACE) - 1;
    const perSession = 4;
    for (let i = 0; i < fullNamespaces; i += perSession) {
      const base = owner({ tenant_id: tenant });
      await Promise.all(
        Array.from({ length: Math.min(perSession, fullNamespaces - i) }, (_, n) => {
          const o = { ...base, ns: `ns-${n}` };
          return store1.commit({ owner: o, expectedRevision: 0, expiresAt: exp, content: content(o, manyTriples(MAX_FACTS_PER_NAMESPACE)), now });
        }),
      );
    }
    // Room left: 512 - 10 taken by one more namespace → exactly 10 facts free.
    const last = owner({ tenant_id: tenant });
    await store2.commit({ owner: last, expectedRevision: 0, expiresAt: exp, content: content(last, manyTriples(MAX_FACTS_PER_NAMESPACE - 10)), now });
    // Eight racers in eight new sessions, four per worker, each wanting 3 facts: at most 3 can fit.
    const racers = Array.from({ length: 8 }, (_, i) => {
      const o = owner({ tenant_id: tenant });
      const store = i % 2 === 0 ? store1 : store2;
      return store.commit({ owner: o, expectedRevision: 0, expiresAt: exp, content: content(o, manyTriples(3, i * 10)), now });
    });
    const results = await Promise.allSettled(racers);
    const won = results.filter((r) => r.status === "fulfilled").length;
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(won).toBe(3);
    expect(refused.map((e) => [e.code, e.details?.limit])).toEqual(Array(5).fill(["limit_exceeded", "live_facts_per_tenant"]));
    const stored = await count(w1, "MATCH (a:SessionMemoryEntity {tenant_id: $t})-[f:SESSION_FACT]->() RETURN count(f) AS n", { t: tenant });
    expect(stored).toBe(MAX_LIVE_FACTS_PER_TENANT - 1);
    expect(stored).toBeLessThanOrEqual(MAX_LIVE_FACTS_PER_TENANT);
  }, 180_000);

  const vectorIndexes: Array<[string, () => SessionVectorIndex, (tenant: string, session: string) => Promise<number>]> = [
    [
      "neo4j vectors",
      () => new Neo4jVectorIndex(w1),
      (t, s) => count(w1, "MATCH (v:SessionMemoryVector {tenant_id: $t, session_id: $s}) RETURN count(v) AS n", { t, s }),
    ],
  ];
  if (milvus.available) {
    const address = process.env.MILVUS_URL ?? "";
    const index = new MilvusVectorIndex({ address });
    const raw = new MilvusClient({ address, logLevel: "error" });
    const embedder = new LocalHashEmbedder();
    afterAll(async () => {
      await index.close();
      await raw.closeConnection();
    });
    vectorIndexes.push([
      "milvus vectors",
      () => index,
      async (t, s) => {
        const r = await raw.query({
          collection_name: collectionName(embedder.model, embedder.dim),
          filter: "tenant_id == {t} && session_id == {s}",
          exprValues: { t, s },
          output_fields: ["pk"],
          consistency_level: "Strong" as never,
        });
        return r.data.length;
      },
    ]);
  } else {
    console.warn(`[skip] revocation cleanup with milvus vectors: ${milvus.reason}`);
  }

  for (const [label, vectors, vectorCount] of vectorIndexes) {
    it(`revocation cleanup removes graph and ${label}; the tombstone stops an old worker from recreating them`, async () => {
      const embedder = new LocalHashEmbedder();
      const clock = new ManualClock(now);
      const v = vectors();
      const engine = new SessionMemoryEngine({ store: store1, clock, vectors: v, embedder });
      const oldWorker = new SessionMemoryEngine({ store: store2, clock, vectors: v, embedder });
      const o = owner();
      const scope = { identity: identityOf(o), ns: o.ns, expiresAt: exp };
      await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] });
      await engine.upsert({ ...scope, ns: rid("repo") }, { triples: [{ subject: "Billing", predicate: "uses", object: "Stripe" }] });
      const graphCount = () =>
        count(w1, "MATCH (e:SessionMemoryEntity {tenant_id: $t, session_id: $s}) RETURN count(e) + COUNT { MATCH (:SessionMemoryEntity {tenant_id: $t, session_id: $s})-[:SESSION_FACT]->() } AS n", {
          t: o.tenant_id,
          s: o.session_id,
        });
      expect(await graphCount()).toBe(6);
      expect(await vectorCount(o.tenant_id, o.session_id)).toBe(4);
      // The old worker read the snapshot before the revocation.
      const before = await store2.load(o, now);
      expect(before?.revision).toBe(1);

      const first = await revokeSessionMemory({ store: store1, vectors: v }, o.tenant_id, o.session_id, now);
      let done = first.done;
      for (let i = 0; i < 20 && !done; i++) done = (await purgeSession({ store: store1, vectors: v }, o.tenant_id, o.session_id, 2)).done;
      expect(done).toBe(true);
      expect(await graphCount()).toBe(0);
      expect(await vectorCount(o.tenant_id, o.session_id)).toBe(0);

      // The old worker tries to write back what it read, directly and through the engine.
      const code = async (p: Promise<unknown>) => p.then(() => "ok", (e: AppError) => e.code);
      expect(await code(store2.commit({ owner: o, expectedRevision: before!.revision, expiresAt: exp, content: before!, now }))).toBe("session_revoked");
      expect(await code(store2.commit({ owner: o, expectedRevision: 0, expiresAt: exp, content: content(o, [["A", "calls", "B"]]), now }))).toBe("session_revoked");
      expect(await code(oldWorker.upsert(scope, { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] }))).toBe("session_revoked");
      expect(await code(store2.clear({ ...o, ns: rid("repo") }, exp, now))).toBe("session_revoked");
      expect(await code(oldWorker.recall(scope, { query: "AuthService" }))).toBe("session_revoked");
      expect(await graphCount()).toBe(0);
      expect(await vectorCount(o.tenant_id, o.session_id)).toBe(0);
      // A direct vector write by an old worker: Neo4j refuses it by the tombstone in the same statement.
      if (v instanceof Neo4jVectorIndex) {
        await v.upsert([{ key: keyOf(o), id: before!.entities[0]!.id, model: embedder.model, vector: embedder.vector("x"), expires_at: exp }]);
        expect(await vectorCount(o.tenant_id, o.session_id)).toBe(0);
      }
    }, 120_000);
  }

  it("MEMORY_STORE=neo4j (and VECTOR_INDEX=milvus when reachable) wires the runtime's memory services", async () => {
    const config = loadConfig({
      MEMORY_STORE: "neo4j",
      NEO4J_URL: process.env.NEO4J_URL,
      NEO4J_USER: process.env.NEO4J_USER,
      NEO4J_PASSWORD: process.env.NEO4J_PASSWORD,
      VECTOR_INDEX: milvus.available ? "milvus" : "local",
      MILVUS_URL: process.env.MILVUS_URL,
    });
    // Neither the Neo4j stores nor Milvus touch the relational handle: none is opened here.
    const services = buildMemoryServices(config, undefined as never, new ManualClock(now), createLogger({ level: "silent" }));
    try {
      expect([services.store.kind, services.vectors.kind]).toEqual(["neo4j", milvus.available ? "milvus" : "neo4j"]);
      // /readyz's round trips to both servers.
      await expect(services.store.ping!()).resolves.toBeUndefined();
      await expect(services.vectors.ping!()).resolves.toBeUndefined();
      const o = owner();
      const scope = { identity: identityOf(o), ns: o.ns, expiresAt: exp };
      await services.sessions.upsert(scope, { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] });
      const r = await services.sessions.recall(scope, { query: "authentication tokens" });
      expect(r.results[0]?.subject.name).toBe("AuthService");
      const repoId = rid("repo");
      await services.repository.upsertTriples(identityOf(o), repoId, { triples: [{ subject: "Billing", predicate: "uses", object: "Stripe" }] });
      const durable = await services.repository.recall(identityOf(o), repoId, { query: "Billing Stripe" });
      expect(durable.results.map((x) => x.subject.name)).toEqual(["Billing"]);
      expect((await services.repository.searchNodes(repoId, "billing", 5)).map((n) => [n.label, n.origin_session_id])).toEqual([["Node", o.session_id]]);
    } finally {
      services.close();
    }
  });

  it("session records never use the code graph's Node label or FACT edges", async () => {
    expect(await count(w1, "MATCH (n:SessionMemoryEntity:Node) RETURN count(n) AS n", {})).toBe(0);
    expect(await count(w1, "MATCH (:SessionMemoryEntity)-[f:FACT]-() RETURN count(f) AS n", {})).toBe(0);
    expect(await count(w1, "MATCH (:Node)-[f:SESSION_FACT]-() RETURN count(f) AS n", {})).toBe(0);
  });
});

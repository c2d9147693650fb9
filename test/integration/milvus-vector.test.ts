/**
 * Milvus (VECTOR_INDEX=milvus) against the real server (VEC-1, VEC-2):
 *  - the contract suite's store+vector tests with the production pairing
 *    (Neo4j session store + Milvus vectors) when both servers are up;
 *  - the collection layout (partition key, compound primary key);
 *  - a foreign hit planted directly in Milvus is returned by the server but
 *    dropped by the engine's recheck;
 *  - a dead Milvus degrades recall to lexical, never an error for the caller;
 *  - the strict literal fallback for servers that refuse filter templates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MilvusClient } from "@zilliz/milvus2-sdk-node";
import type { Driver } from "neo4j-driver";
import { AppError } from "../../core/errors";
import { ManualClock } from "../../core/clock";
import { LocalHashEmbedder } from "../../core/memory/embedder";
import { modelEmbedder } from "../support/model-embedder";
import { SessionMemoryEngine } from "../../core/memory/engine";
import { entityId } from "../../core/memory/ids";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";
import { Neo4jSessionStore } from "../../db/graph/neo4j/session-store";
import { collectionName, MilvusVectorIndex, physicalId, renderLiteral } from "../../db/vector/milvus";
import { describeWithService, probeService } from "../support/services";
import { neo4jFromEnv } from "../support/neo4j";
import { sessionMemoryContract, type SessionMemoryHarness } from "../contract/session-memory.contract";
import { identityOf, keyOf, owner } from "../contract/memory-fixtures";

const milvus = await probeService("milvus");
const neo4j = await probeService("neo4j");
const DAY = 24 * 3600 * 1000;

describeWithService(milvus, "Milvus session vectors", () => {
  const address = process.env.MILVUS_URL ?? "";
  let index: MilvusVectorIndex;
  let raw: MilvusClient;
  beforeAll(() => {
    index = new MilvusVectorIndex({ address });
    raw = new MilvusClient({ address, timeout: 30_000, logLevel: "error" });
  });
  afterAll(async () => {
    await index?.close();
    await raw?.closeConnection();
  });

  if (neo4j.available) {
    describe("SessionMemoryStore contract [neo4j store + milvus vectors]", () => {
      let driver: Driver | undefined;
      let harness: SessionMemoryHarness | undefined;
      beforeAll(async () => {
        driver = neo4jFromEnv();
        const store = new Neo4jSessionStore(driver);
        await store.ensureSchema();
        const d = driver;
        harness = {
          store,
          vectors: index,
          // Straight from Neo4j (Cypher) and Milvus (a query on the embedder's collection), not through the adapters.
          residue: async (tenant, session) => {
            const r = await d.executeQuery(
              `RETURN COUNT { MATCH (e:SessionMemoryEntity {tenant_id: $t, session_id: $s}) } AS entities,
                      COUNT { MATCH (:SessionMemoryEntity {tenant_id: $t, session_id: $s})-[:SESSION_FACT]->() } AS facts,
                      COUNT { MATCH (x:SessionMemoryScope {tenant_id: $t, session_id: $s}) WHERE x.doc <> '{}' } AS docs`,
              { t: tenant, s: session },
            );
            const rec = r.records[0]!;
            const embedder = new LocalHashEmbedder();
            const name = collectionName(embedder.model, embedder.dim);
            const has = await raw.hasCollection({ collection_name: name });
            const v = has.value
              ? (await raw.query({ collection_name: name, filter: renderLiteral("tenant_id == {tenant} && session_id == {session}", { tenant, session }), output_fields: ["pk"] })).data.length
              : 0;
            return { entities: Number(rec.get("entities")), facts: Number(rec.get("facts")), docs: Number(rec.get("docs")), vectors: v };
          },
        };
      });
      afterAll(async () => {
        await driver?.close();
      });
      // The two tenant-wide quota tests are store-only and already run in session-memory.neo4j.test.ts.
      sessionMemoryContract(() => harness!, { slow: false });
    });
  } else {
    console.warn(`[skip] neo4j store + milvus vectors contract: ${neo4j.reason}`);
  }

  it("layout: one collection per model and dimension, tenant_id partition key, compound primary key", async () => {
    const model = "layout-probe";
    await index.ensureCollection(model, 4);
    const d = await raw.describeCollection({ collection_name: collectionName(model, 4) });
    const fields = Object.fromEntries(d.schema.fields.map((f) => [f.name, f]));
    expect(fields.tenant_id?.is_partition_key).toBe(true);
    expect(fields.pk?.is_primary_key).toBe(true);
    expect(Object.keys(fields).sort()).toEqual(["entity_id", "expires_at", "ns", "pk", "session_id", "tenant_id", "vector"]);
    expect(collectionName(model, 4)).not.toBe(collectionName(model, 8));
    const a = owner();
    const b = { ...a, session_id: "other" };
    expect(physicalId(keyOf(a), "x")).not.toBe(physicalId(keyOf(b), "x"));
  });

  it("a foreign hit planted directly in Milvus is returned by the server and dropped by the engine (VEC-2)", async () => {
    const now = Date.now();
    const exp = now + 7 * DAY;
    const embedder = modelEmbedder();
    const store = new InMemorySessionStore();
    const engine = new SessionMemoryEngine({ store, clock: new ManualClock(now), vectors: index, embedder });
    const mine = owner();
    const theirs = owner();
    const scope = (o: typeof mine) => ({ identity: identityOf(o), ns: o.ns, expiresAt: exp });
    await engine.upsert(scope(mine), { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] });
    await engine.upsert(scope(theirs), { triples: [{ subject: "PaymentGateway", predicate: "charges", object: "CreditCard" }] });
    // Planted rows: the other tenant's entity relabelled into my scope (the filter lets it through),
    // and a copy that kept its own tenant (the filter must not).
    const foreignId = entityId(keyOf(theirs), "", "PaymentGateway");
    const [v] = (await embedder.embed(identityOf(mine), ["PaymentGateway"])) as [number[]];
    const planted = { session_id: mine.session_id, ns: mine.ns, entity_id: foreignId, expires_at: exp, vector: v };
    await raw.upsert({
      collection_name: collectionName(embedder.model, embedder.dim),
      data: [
        { pk: `planted-${mine.session_id}`, tenant_id: mine.tenant_id, ...planted },
        { pk: `planted-foreign-${mine.session_id}`, tenant_id: theirs.tenant_id, ...planted },
      ],
    });
    const hits = await index.search(keyOf(mine), v, { model: embedder.model, limit: 10, now });
    expect(hits.some((h) => h.id === foreignId && h.tenant_id === mine.tenant_id)).toBe(true);
    expect(hits.every((h) => h.tenant_id === mine.tenant_id && h.session_id === mine.session_id && h.ns === mine.ns)).toBe(true);
    const r = await engine.recall(scope(mine), { query: "PaymentGateway charges CreditCard", limit: 5 });
    expect(r.results.map((x) => x.subject.name)).not.toContain("PaymentGateway");
    expect(JSON.stringify(r)).not.toContain(foreignId);
    const own = await engine.recall(scope(mine), { query: "authentication tokens", limit: 5 });
    expect(own.results[0]?.subject.name).toBe("AuthService");
  });

  it("a dead Milvus degrades to lexical recall: writes and recall still answer", async () => {
    const dead = new MilvusVectorIndex({ address: "127.0.0.1:9", timeoutMs: 1500 });
    const warnings: string[] = [];
    const now = Date.now();
    const engine = new SessionMemoryEngine({
      store: new InMemorySessionStore(),
      clock: new ManualClock(now),
      vectors: dead,
      embedder: new LocalHashEmbedder(),
      onWarning: (event, code) => warnings.push(`${event}:${code}`),
    });
    const o = owner();
    const scope = { identity: identityOf(o), ns: o.ns, expiresAt: now + DAY };
    await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] });
    const r = await engine.recall(scope, { query: "AuthService", limit: 5 });
    expect(r.results.map((x) => x.subject.name)).toEqual(["AuthService"]);
    expect(warnings).toEqual(["embedding_failed:unavailable", "vector_search_failed:unavailable"]);
    await dead.close().catch(() => undefined);
  }, 60_000);

  it("literal fallback: only identity-charset strings and safe integers are rendered; the rendered filter works on the server", async () => {
    const f = renderLiteral("tenant_id == {tenant} && expires_at > {now}", { tenant: "org-1.a:b_c", now: 5 });
    expect(f).toBe('tenant_id == "org-1.a:b_c" && expires_at > 5');
    for (const bad of ['x" || tenant_id != "', "a b", "", "é", "x".repeat(129)]) {
      expect(() => renderLiteral("tenant_id == {tenant}", { tenant: bad })).toThrow(AppError);
    }
    expect(() => renderLiteral("expires_at > {now}", { now: 1.5 })).toThrow(AppError);
    const o = owner();
    const now = Date.now();
    await index.upsert([{ key: keyOf(o), id: "lit", model: "literal-probe", vector: [1, 0, 0, 0], expires_at: now + DAY }]);
    const res = await raw.query({
      collection_name: collectionName("literal-probe", 4),
      filter: renderLiteral("tenant_id == {tenant} && session_id == {session} && ns == {ns} && expires_at > {now}", { tenant: o.tenant_id, session: o.session_id, ns: o.ns, now }),
      output_fields: ["entity_id"],
    });
    expect(res.data.map((r) => r.entity_id)).toEqual(["lit"]);
  });
});

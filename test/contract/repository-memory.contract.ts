/**
 * The contract every RepositoryMemoryStore adapter (MEM-6) must pass: in
 * memory, PostgreSQL (PGlite and server), Neo4j, HugeGraph.
 *
 *   repositoryMemoryContract(() => store)
 *
 * declares the suite inside the caller's describe(). The getter is called
 * lazily (inside tests), so it can come from a beforeAll. Tests isolate by
 * fresh repository IDs; nothing is shared between them. Promotion runs through
 * the real engine with the in-memory session store on the session side (the
 * repository store is what is under test).
 */
import { expect, it } from "vitest";
import { ManualClock } from "../../core/clock";
import { modelEmbedder } from "../support/model-embedder";
import { SessionMemoryEngine } from "../../core/memory/engine";
import { repoFactId, repoNodeId } from "../../core/memory/ids";
import { RepositoryMemory } from "../../core/memory/repository";
import { FACT_LABEL, NODE_LABEL, type DurableTriple, type RepositoryMemoryStore } from "../../core/memory/repository-store";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";
import { identityOf, owner, rid } from "./memory-fixtures";
import { repositoryValidityContract } from "./repository-memory-validity.contract";

const DAY = 24 * 3600 * 1000;

/** A validated durable triple of `repoId` (IDs derived as RepositoryMemory derives them). */
export function durable(repoId: string, s: string, p: string, o: string, types: [string, string] = ["class", "class"], source?: string): DurableTriple {
  const subject = { id: repoNodeId(repoId, types[0], s), name: s, type: types[0] };
  const object = { id: repoNodeId(repoId, types[1], o), name: o, type: types[1] };
  return { fact_id: repoFactId(repoId, subject.id, p, object.id), subject, predicate: p, object, ...(source !== undefined ? { source } : {}) };
}

export function repositoryMemoryContract(h: () => RepositoryMemoryStore): void {
  const now = Date.UTC(2026, 11, 2, 12);
  const store = () => h();
  repositoryValidityContract(store);
  const chain = (repo: string, n: number, prefix = "N") => Array.from({ length: n }, (_, i) => durable(repo, `${prefix}${i}`, "calls", `${prefix}${i + 1}`));

  it("round-trips facts as Node/FACT records with the writing session as origin", async () => {
    const repo = rid("repo");
    const t = durable(repo, "AuthService", "depends_on", "TokenStore", ["class", "class"], "from a review");
    expect(await store().upsertFacts(repo, [t], { session_id: "ses-a" }, now)).toEqual([t.fact_id]);
    const [fact] = await store().factsTouching(repo, [t.subject.id], 10);
    expect(fact).toMatchObject({ fact_id: t.fact_id, predicate: "depends_on", origin_session_id: "ses-a", source: "from a review" });
    expect(fact!.subject).toMatchObject({ id: t.subject.id, name: "AuthService", type: "class" });
    expect(fact!.object).toMatchObject({ id: t.object.id, name: "TokenStore", type: "class" });
    const g = await store().querySubgraph(repo, t.subject.id, 1, 10);
    expect(g.nodes.map((n) => n.label)).toEqual([NODE_LABEL, NODE_LABEL]);
    expect(g.nodes.every((n) => n.origin_session_id === "ses-a")).toBe(true);
    expect(g.edges).toEqual([{ id: t.fact_id, label: FACT_LABEL, src: t.subject.id, predicate: "depends_on", dst: t.object.id, origin_session_id: "ses-a" }]);
  });

  it("legacy records (written without a session) keep origin null; a later session write never fabricates one", async () => {
    const repo = rid("repo");
    const legacy = durable(repo, "LegacyJob", "reads", "OldTable");
    await store().upsertFacts(repo, [legacy], { session_id: null }, now);
    await store().upsertFacts(repo, [legacy, durable(repo, "LegacyJob", "writes", "NewTable")], { session_id: "ses-b" }, now + 1);
    const facts = await store().factsTouching(repo, [legacy.subject.id], 10);
    const byId = new Map(facts.map((f) => [f.fact_id, f]));
    expect(byId.get(legacy.fact_id)!.origin_session_id).toBeNull();
    expect(facts.find((f) => f.predicate === "writes")!.origin_session_id).toBe("ses-b");
    const g = await store().querySubgraph(repo, legacy.subject.id, 1, 10);
    const nodes = new Map(g.nodes.map((n) => [n.name, n.origin_session_id]));
    expect(nodes.get("LegacyJob")).toBeNull();
    expect(nodes.get("OldTable")).toBeNull();
    expect(nodes.get("NewTable")).toBe("ses-b");
  });

  it("upserts are idempotent: repeated triples and names differing only in case/spacing collapse, the first origin stays", async () => {
    const repo = rid("repo");
    const a = durable(repo, "CacheLayer", "wraps", "RedisCluster");
    const b = durable(repo, "cachelayer", "wraps", " RedisCluster ".trim());
    expect(b.fact_id).toBe(a.fact_id);
    await store().upsertFacts(repo, [a, a, b], { session_id: "ses-1" }, now);
    await store().upsertFacts(repo, [b], { session_id: "ses-2" }, now + 1);
    const facts = await store().factsTouching(repo, [a.subject.id, a.object.id], 10);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.origin_session_id).toBe("ses-1");
    expect(facts[0]!.subject.name).toBe("CacheLayer");
    const g = await store().querySubgraph(repo, a.subject.id, 2, 10);
    expect(g.nodes).toHaveLength(2);
    expect(g.edges).toHaveLength(1);
  });

  it("repository isolation: equal names in another repository (another tenant's) are other records, never visible across", async () => {
    const repoA = rid("repo");
    const repoB = rid("repo");
    const a = durable(repoA, "BillingWorker", "calls", "StripeGateway");
    const b = durable(repoB, "BillingWorker", "calls", "StripeGateway");
    expect(a.fact_id).not.toBe(b.fact_id);
    await store().upsertFacts(repoA, [a], { session_id: "ses-a" }, now);
    await store().upsertFacts(repoB, [b, durable(repoB, "BillingWorker", "reads", "SecretLedger")], { session_id: "ses-b" }, now);
    // Search, lexical candidates, touching, subgraph: repo A sees only its own.
    expect((await store().searchNodes(repoA, ["billing"], 50)).map((n) => n.id)).toEqual([a.subject.id]);
    expect((await store().factsMatching(repoA, ["billing", "secret"], 50)).map((f) => f.fact_id)).toEqual([a.fact_id]);
    expect(await store().factsTouching(repoA, [b.subject.id, b.object.id], 50)).toEqual([]);
    expect(await store().querySubgraph(repoA, b.subject.id, 3, 50)).toEqual({ nodes: [], edges: [] });
    const g = await store().querySubgraph(repoA, a.subject.id, 3, 50);
    expect(g.nodes.map((n) => n.name).sort()).toEqual(["BillingWorker", "StripeGateway"]);
    expect(g.edges.map((e) => e.id)).toEqual([a.fact_id]);
    // An unknown repository sees nothing at all.
    const empty = rid("repo");
    expect(await store().searchNodes(empty, ["billing"], 50)).toEqual([]);
    expect(await store().factsMatching(empty, ["billing"], 50)).toEqual([]);
    expect(await store().nodesMissingEmbedding(empty, "m", 50)).toEqual([]);
    expect(await store().embeddings(empty, "m", 50)).toEqual([]);
  });

  it("embeddings are per repository and model: a foreign node id is ignored, other models are not returned", async () => {
    const repoA = rid("repo");
    const repoB = rid("repo");
    const a = durable(repoA, "SearchIndexer", "writes", "ElasticIndex");
    const b = durable(repoB, "SearchIndexer", "writes", "ElasticIndex");
    await store().upsertFacts(repoA, [a], { session_id: "s" }, now);
    await store().upsertFacts(repoB, [b], { session_id: "s" }, now);
    expect((await store().nodesMissingEmbedding(repoA, "m1", 10)).map((n) => n.id).sort()).toEqual([a.subject.id, a.object.id].sort());
    await store().setEmbeddings(repoA, "m1", [
      { id: a.subject.id, vector: [1, 0, 0] },
      { id: b.subject.id, vector: [0, 1, 0] },
    ]);
    expect(await store().embeddings(repoA, "m1", 10)).toEqual([{ id: a.subject.id, vector: [1, 0, 0] }]);
    expect(await store().embeddings(repoB, "m1", 10)).toEqual([]);
    expect(await store().embeddings(repoA, "m2", 10)).toEqual([]);
    expect((await store().nodesMissingEmbedding(repoA, "m1", 10)).map((n) => n.id)).toEqual([a.object.id]);
    expect((await store().nodesMissingEmbedding(repoA, "m2", 10)).map((n) => n.id).sort()).toEqual([a.subject.id, a.object.id].sort());
  });

  it("search is a case-insensitive substring match of every token, literal (no wildcards), bounded by limit", async () => {
    const repo = rid("repo");
    await store().upsertFacts(repo, [durable(repo, "rate_limiter", "uses", "RateXLimiter"), durable(repo, "RateLimiter", "uses", "100%Cache")], { session_id: "s" }, now);
    expect((await store().searchNodes(repo, ["RATE"], 50)).map((n) => n.name).sort()).toEqual(["RateLimiter", "RateXLimiter", "rate_limiter"]);
    expect((await store().searchNodes(repo, ["rate", "x"], 50)).map((n) => n.name)).toEqual(["RateXLimiter"]);
    expect((await store().searchNodes(repo, ["e_l"], 50)).map((n) => n.name)).toEqual(["rate_limiter"]);
    expect((await store().searchNodes(repo, ["%"], 50)).map((n) => n.name)).toEqual(["100%Cache"]);
    expect(await store().searchNodes(repo, ["r"], 2)).toHaveLength(2);
    expect((await store().factsMatching(repo, ["_"], 50)).map((f) => f.subject.name)).toEqual(["rate_limiter"]);
    expect(await store().factsMatching(repo, [], 50)).toEqual([]);
  });

  it("bounded queries honour their limits: search, lexical candidates, touching facts, missing embeddings, embeddings", async () => {
    const repo = rid("repo");
    const triples = chain(repo, 30, "Node");
    await store().upsertFacts(repo, triples, { session_id: "s" }, now);
    expect(await store().searchNodes(repo, ["node"], 7)).toHaveLength(7);
    expect(await store().factsMatching(repo, ["node"], 5)).toHaveLength(5);
    expect(await store().factsTouching(repo, triples.map((t) => t.subject.id), 4)).toHaveLength(4);
    expect(await store().nodesMissingEmbedding(repo, "m", 6)).toHaveLength(6);
    await store().setEmbeddings(repo, "m", triples.map((t) => ({ id: t.subject.id, vector: [1, 2] })));
    expect(await store().embeddings(repo, "m", 9)).toHaveLength(9);
    expect(await store().embeddings(repo, "m", 100)).toHaveLength(30);
  });

  it("subgraph: bounded by depth and by the edge limit, both directions, every node an endpoint inside the repository", async () => {
    const repo = rid("repo");
    const triples = chain(repo, 10); // N0 → N1 → … → N10
    await store().upsertFacts(repo, triples, { session_id: "s" }, now);
    const mid = triples[5]!.subject.id; // N5
    const d1 = await store().querySubgraph(repo, mid, 1, 100);
    expect(d1.nodes.map((n) => n.name).sort()).toEqual(["N4", "N5", "N6"]);
    expect(d1.edges).toHaveLength(2);
    const d2 = await store().querySubgraph(repo, mid, 2, 100);
    expect(d2.nodes.map((n) => n.name).sort()).toEqual(["N3", "N4", "N5", "N6", "N7"]);
    expect(d2.edges).toHaveLength(4);
    const capped = await store().querySubgraph(repo, mid, 3, 3);
    expect(capped.edges.length).toBeLessThanOrEqual(3);
    expect(capped.edges.length).toBeGreaterThan(0);
    const ids = new Set(capped.nodes.map((n) => n.id));
    expect(ids.has(mid)).toBe(true);
    for (const e of capped.edges) expect(ids.has(e.src) && ids.has(e.dst)).toBe(true);
    expect(await store().querySubgraph(repo, repoNodeId(repo, "class", "Nowhere"), 2, 10)).toEqual({ nodes: [], edges: [] });
  });

  it("concurrent upserts of overlapping triples: all succeed, no duplicates, every record has exactly one of the writers' origins", async () => {
    const repo = rid("repo");
    const shared = chain(repo, 20, "Shared");
    const writers = Array.from({ length: 6 }, (_, w) => [...shared.slice(w, w + 10), durable(repo, `Own${w}`, "calls", "Shared0")]);
    const results = await Promise.allSettled(writers.map((t, w) => store().upsertFacts(repo, t, { session_id: `ses-${w}` }, now + w)));
    expect(results.map((r) => r.status)).toEqual(writers.map(() => "fulfilled"));
    const g = await store().querySubgraph(repo, shared[0]!.subject.id, 3, 500);
    const all = await store().factsMatching(repo, ["shared", "own"], 500);
    const ids = all.map((f) => f.fact_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(15 + 6); // shared[0..14] and six own facts
    const origins = new Set(writers.map((_, w) => `ses-${w}`));
    for (const f of all) expect(origins.has(f.origin_session_id!)).toBe(true);
    expect(g.nodes.every((n) => origins.has(n.origin_session_id!))).toBe(true);
  });

  it("promotion copies session facts with the promoting session as origin; clearing session memory keeps the copies", async () => {
    const clock = new ManualClock(now);
    const o = owner();
    const scope = { identity: identityOf(o), ns: o.ns, expiresAt: now + 7 * DAY };
    const sessions = new SessionMemoryEngine({ store: new InMemorySessionStore(), clock });
    const repoMemory = new RepositoryMemory({ repo: store(), clock });
    const { facts } = await sessions.upsert(scope, {
      triples: [
        { subject: "OrderService", subject_type: "class", predicate: "emits", object: "OrderShipped", object_type: "event" },
        { subject: "OrderService", subject_type: "class", predicate: "calls", object: "ShippingQuoter", object_type: "class" },
      ],
    });
    const { promoted } = await repoMemory.promote(sessions, scope, [facts[0]!.fact_id]);
    expect(promoted).toEqual([durable(o.ns, "OrderService", "emits", "OrderShipped", ["class", "event"]).fact_id]);
    // The session fact stays.
    expect((await sessions.read(scope)).facts.map((f) => f.fact_id).sort()).toEqual(facts.map((f) => f.fact_id).sort());
    await sessions.clear(scope);
    const copies = await store().factsMatching(o.ns, ["orderservice"], 50);
    expect(copies.map((f) => f.fact_id)).toEqual(promoted);
    expect(copies[0]!.origin_session_id).toBe(o.session_id);
    // A fact ID of another session is refused as a whole and copies nothing.
    const other = owner({ ns: o.ns });
    const otherScope = { identity: identityOf(other), ns: other.ns, expiresAt: now + 7 * DAY };
    const foreign = await sessions.upsert(otherScope, { triples: [{ subject: "Intruder", predicate: "calls", object: "OrderService", object_type: "class" }] });
    await expect(repoMemory.promote(sessions, scope, [foreign.facts[0]!.fact_id])).rejects.toMatchObject({ code: expect.stringMatching(/not_found|namespace_closed/) });
    await expect(repoMemory.promote(sessions, otherScope, [facts[1]!.fact_id])).rejects.toMatchObject({ code: "not_found" });
    expect((await store().factsMatching(o.ns, ["intruder", "shippingquoter"], 50)).length).toBe(0);
  });

  it("durable recall (BM25 + dense + RRF) answers from the repository only", async () => {
    const clock = new ManualClock(now);
    const embedder = modelEmbedder();
    const mem = new RepositoryMemory({ repo: store(), clock, embedder });
    const a = owner();
    const b = owner();
    await mem.upsertTriples(identityOf(a), a.ns, { triples: [{ subject: "InvoiceRepository", subject_type: "class", predicate: "stores_in", object: "PostgresPrimary" }] });
    await mem.upsertTriples(identityOf(b), b.ns, { triples: [{ subject: "InvoiceRepository", subject_type: "class", predicate: "stores_in", object: "MongoReplica" }] });
    const r = await mem.recall(identityOf(a), a.ns, { query: "where are invoices stored", limit: 10 });
    expect(r.results.map((x) => x.object.name)).toEqual(["PostgresPrimary"]);
    const none = await mem.recall(identityOf(a), rid("repo"), { query: "invoices", limit: 10 });
    expect(none.results).toEqual([]);
  });
  it("durable recall gives one node one of the first places while other nodes match: a file's members do not crowd them out", async () => {
    const clock = new ManualClock(now);
    const embedder = modelEmbedder();
    const mem = new RepositoryMemory({ repo: store(), clock, embedder });
    const a = owner();
    const members = ["verifyToken", "verifyTokenExpiry", "verifyTokenIssuer", "verifyTokenAudience", "verifyTokenSignature", "verifyTokenScope"];
    await mem.upsertTriples(identityOf(a), a.ns, {
      triples: [
        ...members.map((m) => ({ subject: "auth/tokens.ts", subject_type: "file", predicate: "contains", object: `auth/tokens.ts#${m}`, object_type: "function" })),
        { subject: "api/session.ts#requireSession", subject_type: "function", predicate: "documented_as", object: "Rejects a request whose session token fails verification", object_type: "code.doc" },
        { subject: "api/keys.ts#checkKey", subject_type: "function", predicate: "documented_as", object: "Verifies a presented API token against its stored hash", object_type: "code.doc" },
      ],
    });
    const r = await mem.recall(identityOf(a), a.ns, { query: "where is a token verified", limit: 5 });
    const top = r.results.slice(0, 3);
    // At most one `contains` fact of the file among the first three; the other matching facts are there.
    expect(top.filter((x) => x.subject.name === "auth/tokens.ts").length).toBeLessThanOrEqual(1);
    expect(r.results.map((x) => x.subject.name)).toEqual(expect.arrayContaining(["api/session.ts#requireSession", "api/keys.ts#checkKey"]));
    // Nothing is dropped: the file's other members follow.
    const all = await mem.recall(identityOf(a), a.ns, { query: "where is a token verified", limit: 20 });
    expect(all.results.filter((x) => x.predicate === "contains").length).toBe(members.length);
  });
  it("promotion copies lineage: the durable copy names the session fact, since when it was current and what it replaced", async () => {
    const clock = new ManualClock(now);
    const o = owner();
    const scope = { identity: identityOf(o), ns: o.ns, expiresAt: now + 7 * DAY };
    const sessions = new SessionMemoryEngine({ store: new InMemorySessionStore(), clock });
    const repoMemory = new RepositoryMemory({ repo: store(), clock });
    const old = (await sessions.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "RS256" }] })).facts[0]!;
    clock.advance(60_000);
    const cur = (await sessions.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "ES256" }], supersedes: [old.fact_id] })).facts[0]!;
    const { promoted } = await repoMemory.promote(sessions, scope, [cur.fact_id]);
    await sessions.clear(scope);
    const [copy] = await store().factsTouching(o.ns, [durable(o.ns, "AuthService", "signs_with", "ES256", ["", ""]).subject.id], 10);
    expect(copy!.fact_id).toBe(promoted[0]);
    expect(copy!.source).toContain(`promoted from session fact ${cur.fact_id} of session ${o.session_id}, current since ${new Date(now + 60_000).toISOString()}`);
    expect(copy!.source).toContain(`replaced ${old.fact_id} (AuthService signs_with RS256) ${new Date(now).toISOString()}..${new Date(now + 60_000).toISOString()} superseded`);
  });

  it("forgetting a session's writes removes its facts and the nodes only it used; shared nodes stay without its origin", async () => {
    const repo = rid("repo");
    const mine = [durable(repo, "Ledger", "writes", "Journal"), durable(repo, "Ledger", "reads", "Accounts")];
    const theirs = durable(repo, "Billing", "reads", "Accounts");
    await store().upsertFacts(repo, mine, { session_id: "ses-forget" }, now);
    await store().upsertFacts(repo, [theirs], { session_id: "ses-keep" }, now + 1);
    // Other repositories' records of the same session are not touched.
    const elsewhere = rid("repo");
    await store().upsertFacts(elsewhere, [durable(elsewhere, "Ledger", "writes", "Journal")], { session_id: "ses-forget" }, now);
    expect(await store().forgetOrigin(repo, "ses-forget")).toEqual({ edges: 2, nodes: 2, history: 0, fact_ids: expect.arrayContaining(mine.map((t) => t.fact_id)) });
    expect(await store().searchNodes(repo, ["ledger"], 10)).toEqual([]);
    expect(await store().searchNodes(repo, ["journal"], 10)).toEqual([]);
    const accounts = await store().searchNodes(repo, ["accounts"], 10);
    expect(accounts).toEqual([expect.objectContaining({ name: "Accounts", origin_session_id: null })]);
    const left = await store().factsTouching(repo, [theirs.subject.id, theirs.object.id, mine[0]!.subject.id], 10);
    expect(left.map((f) => f.fact_id)).toEqual([theirs.fact_id]);
    expect(left[0]!.origin_session_id).toBe("ses-keep");
    expect((await store().factsMatching(elsewhere, ["ledger"], 10)).map((f) => f.origin_session_id)).toEqual(["ses-forget"]);
    // Idempotent.
    expect(await store().forgetOrigin(repo, "ses-forget")).toEqual({ edges: 0, nodes: 0, history: 0, fact_ids: [] });
  });
}

/**
 * Side-by-side checks for a RepositoryMemoryStore adapter against the
 * in-memory reference adapter: every operation must give the same answer
 * (compared order-free, since adapters order differently). Run beside the
 * unchanged contract suite by each real-server adapter (Neo4j, HugeGraph).
 */
import { expect, it } from "vitest";
import { repoFactId, repoNodeId } from "../../core/memory/ids";
import type { DurableTriple, RepositoryMemoryStore } from "../../core/memory/repository-store";
import { InMemoryRepositoryStore } from "../../db/graph/memory/repository-store";
import { rid } from "./memory-fixtures";

function triple(repo: string, s: string, p: string, o: string, source?: string): DurableTriple {
  const subject = { id: repoNodeId(repo, "class", s), name: s, type: "class" };
  const object = { id: repoNodeId(repo, "class", o), name: o, type: "class" };
  return { fact_id: repoFactId(repo, subject.id, p, object.id), subject, predicate: p, object, ...(source ? { source } : {}) };
}

const byId = <T extends { id?: string; fact_id?: string }>(xs: T[]) => [...xs].sort((a, b) => String(a.id ?? a.fact_id).localeCompare(String(b.id ?? b.fact_id)));

export function repositoryReferenceChecks(store: () => RepositoryMemoryStore): void {
  const ref = new InMemoryRepositoryStore();
  const both = async <T>(fn: (s: RepositoryMemoryStore) => Promise<T>): Promise<[T, T]> => [await fn(store()), await fn(ref)];

  it("upserts record origin_session_id once, keep null for sessionless writes, and stay inside their repository", async () => {
    const repo = rid("repo");
    const t1 = triple(repo, "AuthService", "depends_on", "TokenStore", "design doc");
    const t2 = triple(repo, "TokenStore", "uses", "Redis");
    const [a, b] = await both((s) => s.upsertFacts(repo, [t1], { session_id: "ses-1" }, 1000));
    expect(a).toEqual(b);
    await both((s) => s.upsertFacts(repo, [t1, t2], { session_id: "ses-2" }, 2000));
    await both((s) => s.upsertFacts(repo, [triple(repo, "Legacy", "calls", "Redis")], { session_id: null }, 3000));
    const [n, r] = await both((s) => s.factsMatching(repo, ["redis", "auth"], 50));
    expect(byId(n)).toEqual(byId(r));
    const origins = Object.fromEntries(n.map((f) => [`${f.subject.name}>${f.object.name}`, f.origin_session_id]));
    expect(origins).toEqual({ "AuthService>TokenStore": "ses-1", "TokenStore>Redis": "ses-2", "Legacy>Redis": null });
    expect(n.find((f) => f.subject.name === "AuthService")?.source).toBe("design doc");
    const [nodes, refNodes] = await both((s) => s.searchNodes(repo, ["token"], 10));
    expect(byId(nodes)).toEqual(byId(refNodes));
    expect(nodes.map((x) => [x.label, x.origin_session_id])).toEqual([["Node", "ses-1"]]);
    expect(await store().factsMatching(rid("repo"), ["redis"], 50)).toEqual([]);
    expect(await store().searchNodes(rid("repo"), ["token"], 10)).toEqual([]);
  });

  it("factsTouching and querySubgraph agree with the reference", async () => {
    const repo = rid("repo");
    const ts = [triple(repo, "A", "calls", "B"), triple(repo, "B", "calls", "C"), triple(repo, "C", "calls", "D"), triple(repo, "X", "uses", "A")];
    await both((s) => s.upsertFacts(repo, ts, { session_id: "ses" }, 1000));
    const a = ts[0]!.subject.id;
    const [t, tr] = await both((s) => s.factsTouching(repo, [a], 10));
    expect(byId(t)).toEqual(byId(tr));
    for (const depth of [1, 2, 3]) {
      const [g, gr] = await both((s) => s.querySubgraph(repo, a, depth, 100));
      expect(byId(g.nodes)).toEqual(byId(gr.nodes));
      expect(byId(g.edges)).toEqual(byId(gr.edges));
    }
    expect(await store().querySubgraph(repo, repoNodeId(repo, "class", "nope"), 2, 10)).toEqual({ nodes: [], edges: [] });
    expect(await store().querySubgraph(rid("repo"), a, 2, 10)).toEqual({ nodes: [], edges: [] });
  });

  it("embeddings: missing, set, read back per model", async () => {
    const repo = rid("repo");
    await both((s) => s.upsertFacts(repo, [triple(repo, "A", "calls", "B")], { session_id: "ses" }, 1000));
    const [m, mr] = await both((s) => s.nodesMissingEmbedding(repo, "m", 10));
    expect(byId(m)).toEqual(byId(mr));
    const vectors = m.map((x, i) => ({ id: x.id, vector: [i, 1, 0.5] }));
    await both((s) => s.setEmbeddings(repo, "m", vectors));
    const [e, er] = await both((s) => s.embeddings(repo, "m", 10));
    expect(byId(e)).toEqual(byId(er));
    expect(await store().nodesMissingEmbedding(repo, "m", 10)).toEqual([]);
    expect(await store().nodesMissingEmbedding(repo, "other", 10)).toHaveLength(2);
  });

  it("pruneSource (re-ingest) removes stale sourced facts and orphaned code nodes, like the reference", async () => {
    const repo = rid("repo");
    const code = (s: string, p: string, o: string) => {
      const subject = { id: repoNodeId(repo, "code:file", s), name: s, type: "code:file" };
      const object = { id: repoNodeId(repo, "code:file", o), name: o, type: "code:file" };
      return { fact_id: repoFactId(repo, subject.id, p, object.id), subject, predicate: p, object, source: "ingest" };
    };
    const keep = code("a.ts", "imports", "b.ts");
    const stale = code("c.ts", "imports", "d.ts");
    const shared = code("b.ts", "imports", "e.ts");
    const memoryFact = { ...triple(repo, "Reviewer", "mentions", "x"), object: { ...stale.object } };
    memoryFact.fact_id = repoFactId(repo, memoryFact.subject.id, "mentions", stale.object.id);
    await both((s) => s.upsertFacts(repo, [keep, stale, shared, memoryFact], { session_id: "ses" }, 1000));
    const [p, pr] = await both((s) => s.pruneSource(repo, "ingest", [keep.fact_id], "code:"));
    expect(p).toEqual(pr);
    expect(p).toEqual({ edges: 2, nodes: 2 });
    const [g, gr] = await both((s) => s.factsMatching(repo, ["ts", "reviewer"], 50));
    expect(byId(g)).toEqual(byId(gr));
    expect(await store().pruneSource(rid("repo"), "ingest", [], "code:")).toEqual({ edges: 0, nodes: 0 });
  });
}

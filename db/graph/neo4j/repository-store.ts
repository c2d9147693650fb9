/**
 * Neo4j RepositoryMemoryStore (MEM-6): the durable repository graph.
 *
 *  (:Node {repo_id, id, label: "Node", name, name_key, type, props, origin_session_id?,
 *          embedding_model?, embedding?, created_at, updated_at})
 *  (a:Node)-[:FACT {repo_id, id, label: "FACT", predicate, props, origin_session_id?, created_at}]->(b:Node)
 *  (:RepoMemoryLock {repo_id, lock, doc?})   per-repository write lock; `lock` counts the
 *                                         locked writes (the repository's revision), `doc` is
 *                                         its meta document (history, single-valued predicates)
 *
 * Writes take the repository's lock node first, so MAX_REPO_NODES /
 * MAX_REPO_FACTS hold under concurrency; existing nodes and edges keep their
 * first `origin_session_id`; a write without a session leaves the property
 * absent (read back as null) — no session is fabricated. Session memory
 * never uses these labels (it has its own, see schema.ts).
 */
import { AppError, limitError } from "../../../core/errors";
import { MAX_REPO_NODES } from "../../../core/limits";
import { nameKey } from "../../../core/memory/ids";
import { checkRepoDoc, checkRepoFactQuota, edgeProps, forgetInDoc } from "../../../core/memory/repository-history";
import {
  type DurableTriple,
  type ForgetResult,
  type RepoChange,
  type RepoFact,
  type RepoMemoryDoc,
  type RepoMeta,
  type RepoNode,
  type RepositoryMemoryStore,
  type Subgraph,
} from "../../../core/memory/repository-store";
import { int, one, rows, Neo4jStore } from "./driver";
import { ensureSchema } from "./schema";
import { parseDoc, toRepoFact, type RepoFactRow } from "../graph-rows";

export const REPOSITORY_SCHEMA: readonly string[] = [
  "CREATE CONSTRAINT repo_memory_lock_key IF NOT EXISTS FOR (l:RepoMemoryLock) REQUIRE l.repo_id IS UNIQUE",
  "CREATE CONSTRAINT repo_node_key IF NOT EXISTS FOR (n:Node) REQUIRE (n.repo_id, n.id) IS UNIQUE",
  "CREATE CONSTRAINT repo_fact_key IF NOT EXISTS FOR ()-[f:FACT]-() REQUIRE (f.repo_id, f.id) IS UNIQUE",
  "CREATE INDEX repo_node_repo IF NOT EXISTS FOR (n:Node) ON (n.repo_id)",
  "CREATE INDEX repo_fact_repo IF NOT EXISTS FOR ()-[f:FACT]-() ON (f.repo_id)",
];

// Takes the lock, bumps the revision, answers the revision and meta document it held.
const LOCK = "MERGE (l:RepoMemoryLock {repo_id: $repo}) SET l.lock = coalesce(l.lock, 0) + 1 RETURN l.lock - 1 AS revision, l.doc AS doc";

const META = "OPTIONAL MATCH (l:RepoMemoryLock {repo_id: $repo}) RETURN coalesce(l.lock, 0) AS revision, l.doc AS doc";

const SET_DOC = "MATCH (l:RepoMemoryLock {repo_id: $repo}) SET l.doc = $doc";

const END_FACTS = `
MATCH ()-[e:FACT {repo_id: $repo}]->() WHERE e.id IN $ids
WITH collect(e) AS gone
FOREACH (x IN gone | DELETE x)
RETURN size(gone) AS n`;

const EXISTING = `
RETURN [x IN $node_ids WHERE EXISTS { MATCH (:Node {repo_id: $repo, id: x}) }] AS nodes,
       [x IN $fact_ids WHERE EXISTS { MATCH ()-[:FACT {repo_id: $repo, id: x}]->() }] AS facts`;

const COUNTS = `
RETURN COUNT { MATCH (n:Node {repo_id: $repo}) } AS nodes,
       COUNT { MATCH ()-[f:FACT {repo_id: $repo}]->() } AS facts`;

const CREATE_NODES = `
UNWIND $rows AS row
CREATE (:Node {repo_id: $repo, id: row.id, label: 'Node', name: row.name, name_key: row.name_key, type: row.type, props: '{}',
               origin_session_id: $origin, created_at: $now, updated_at: $now})`;

const CREATE_FACTS = `
UNWIND $rows AS row
MATCH (a:Node {repo_id: $repo, id: row.src})
MATCH (b:Node {repo_id: $repo, id: row.dst})
CREATE (a)-[f:FACT {repo_id: $repo, id: row.id, label: 'FACT', predicate: row.predicate, props: row.props, source: row.source,
                    origin_session_id: $origin, created_at: $now}]->(b)
RETURN count(f) AS n`;

// Re-ingest (pruneSource): the facts a source wrote that the new snapshot no longer has, then the
// code nodes nothing touches any more. Memory facts (other sources) and their nodes stay.
const PRUNE_FACTS = `
MATCH ()-[e:FACT {repo_id: $repo, source: $source}]->()
WHERE NOT e.id IN $keep
WITH collect(e) AS stale
FOREACH (x IN stale | DELETE x)
RETURN size(stale) AS n`;

const PRUNE_ORPHANS = `
MATCH (n:Node {repo_id: $repo})
WHERE n.type STARTS WITH $prefix AND NOT EXISTS { (n)--() }
WITH collect(n) AS orphans
FOREACH (x IN orphans | DELETE x)
RETURN size(orphans) AS n`;

// Erasure of one session's writes (forgetOrigin): its facts, then its nodes nothing touches; shared nodes lose the origin.
const FORGET_FACTS = `
MATCH ()-[e:FACT {repo_id: $repo, origin_session_id: $session}]->()
WITH collect(e) AS gone, collect(e.id) AS ids
FOREACH (x IN gone | DELETE x)
RETURN size(gone) AS n, ids`;

const FORGET_NODES = `
MATCH (n:Node {repo_id: $repo, origin_session_id: $session})
WHERE NOT EXISTS { (n)--() }
WITH collect(n) AS orphans
FOREACH (x IN orphans | DELETE x)
RETURN size(orphans) AS n`;

const FORGET_ORIGIN = `
MATCH (n:Node {repo_id: $repo, origin_session_id: $session})
REMOVE n.origin_session_id`;

const NODE = "n { .id, label: coalesce(n.label, 'Node'), .name, type: coalesce(n.type, ''), origin_session_id: n.origin_session_id }";

const SEARCH_NODES = `
MATCH (n:Node {repo_id: $repo})
WHERE all(t IN $tokens WHERE n.name_key CONTAINS t)
WITH n ORDER BY n.name_key, n.id LIMIT $limit
RETURN ${NODE} AS node`;

const NODE_BY_ID = `MATCH (n:Node {repo_id: $repo, id: $id}) RETURN ${NODE} AS node`;

const NODES_BY_IDS = `MATCH (n:Node {repo_id: $repo}) WHERE n.id IN $ids RETURN ${NODE} AS node`;

const EDGES_AROUND = `
MATCH (a:Node {repo_id: $repo})-[e]-(b:Node {repo_id: $repo})
WHERE a.id IN $frontier AND e.repo_id = $repo
WITH DISTINCT e
ORDER BY e.id LIMIT $limit
RETURN e.id AS id, type(e) AS label, startNode(e).id AS src, coalesce(e.predicate, toLower(type(e))) AS predicate,
       endNode(e).id AS dst, e.origin_session_id AS origin_session_id`;

const FACT = `{ fact_id: e.id, subject: s { .id, .name, type: coalesce(s.type, '') }, predicate: e.predicate,
  object: o { .id, .name, type: coalesce(o.type, '') }, origin_session_id: e.origin_session_id, props: e.props }`;

const FACTS_MATCHING = `
MATCH (s:Node {repo_id: $repo})-[e:FACT {repo_id: $repo}]->(o:Node {repo_id: $repo})
WHERE any(t IN $tokens WHERE s.name_key CONTAINS t OR o.name_key CONTAINS t)
WITH s, e, o ORDER BY e.id LIMIT $limit
RETURN ${FACT} AS fact`;

const FACTS_SELECTED = `
MATCH (s:Node {repo_id: $repo})-[e:FACT {repo_id: $repo}]->(o:Node {repo_id: $repo})
WHERE e.id IN $ids OR (s.id IN $subjects AND e.predicate IN $predicates)
WITH s, e, o ORDER BY e.id LIMIT $limit
RETURN ${FACT} AS fact`;

const FACTS_PAGE = `
MATCH (s:Node {repo_id: $repo})-[e:FACT {repo_id: $repo}]->(o:Node {repo_id: $repo})
WHERE e.id > $after
WITH s, e, o ORDER BY e.id LIMIT $limit
RETURN ${FACT} AS fact`;

const FACTS_TOUCHING = `
MATCH (n:Node {repo_id: $repo}) WHERE n.id IN $ids
MATCH (n)-[x:FACT {repo_id: $repo}]-()
WITH DISTINCT x
MATCH (s:Node {repo_id: $repo})-[e:FACT]->(o:Node {repo_id: $repo}) WHERE e = x
WITH s, e, o ORDER BY e.id LIMIT $limit
RETURN ${FACT} AS fact`;

const MISSING_EMBEDDING = `
MATCH (n:Node {repo_id: $repo})
WHERE n.embedding_model IS NULL OR n.embedding_model <> $model
WITH n ORDER BY n.created_at, n.id LIMIT $limit
RETURN ${NODE} AS node`;

const SET_EMBEDDINGS = `
UNWIND $rows AS row
MATCH (n:Node {repo_id: $repo, id: row.id})
SET n.embedding_model = $model, n.embedding = row.vector, n.updated_at = $now`;

const EMBEDDINGS = `
MATCH (n:Node {repo_id: $repo})
WHERE n.embedding_model = $model AND n.embedding IS NOT NULL
WITH n ORDER BY n.id LIMIT $limit
RETURN n.id AS id, n.embedding AS vector`;

function toNode(n: RepoNode): RepoNode {
  return { ...n, origin_session_id: n.origin_session_id ?? null };
}

export class Neo4jRepositoryStore extends Neo4jStore implements RepositoryMemoryStore {
  ensureSchema(): Promise<void> {
    return ensureSchema(this.driver, REPOSITORY_SCHEMA, this.database);
  }

  async upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number, change?: RepoChange): Promise<string[]> {
    const nodes = new Map<string, { id: string; name: string; type: string }>();
    const edges = new Map<string, DurableTriple>();
    // The first occurrence in a batch wins, as it does against stored records.
    for (const t of triples) {
      for (const n of [t.subject, t.object]) if (!nodes.has(n.id)) nodes.set(n.id, n);
      if (!edges.has(t.fact_id)) edges.set(t.fact_id, t);
    }
    await this.run("WRITE", async (tx) => {
      const held = await one<{ revision: number; doc: string | null }>(tx, LOCK, { repo: repoId });
      if (change) {
        if (Number(held.revision) !== change.expectedRevision) throw new AppError("revision_conflict");
        checkRepoDoc(repoId, change.doc);
        const end = [...new Set(change.end.map((x) => x.fact_id))];
        if (end.length > 0) {
          const { n } = await one<{ n: number }>(tx, END_FACTS, { repo: repoId, ids: end });
          if (Number(n) !== end.length) throw new AppError("revision_conflict");
        }
        await tx.run(SET_DOC, { repo: repoId, doc: JSON.stringify(change.doc) });
      }
      const existing = await one<{ nodes: string[]; facts: string[] }>(tx, EXISTING, { repo: repoId, node_ids: [...nodes.keys()], fact_ids: [...edges.keys()] });
      const haveNodes = new Set(existing.nodes);
      const haveFacts = new Set(existing.facts);
      const addNodes = [...nodes.values()].filter((n) => !haveNodes.has(n.id));
      const addFacts = [...edges.values()].filter((e) => !haveFacts.has(e.fact_id));
      if (addNodes.length === 0 && addFacts.length === 0 && !change) return;
      const counts = await one<{ nodes: number; facts: number }>(tx, COUNTS, { repo: repoId });
      if (addNodes.length > 0 && counts.nodes + addNodes.length > MAX_REPO_NODES) throw limitError("repo_nodes", MAX_REPO_NODES);
      if (addFacts.length > 0 || change) checkRepoFactQuota(Number(counts.facts) + addFacts.length, change ? change.doc : parseDoc<RepoMemoryDoc>(held.doc));
      const p = { repo: repoId, origin: origin.session_id, now: int(now) };
      for (let i = 0; i < addNodes.length; i += 500) {
        await tx.run(CREATE_NODES, { ...p, rows: addNodes.slice(i, i + 500).map((n) => ({ id: n.id, name: n.name, name_key: nameKey(n.name), type: n.type })) });
      }
      for (let i = 0; i < addFacts.length; i += 500) {
        const batch = addFacts.slice(i, i + 500).map((e) => ({
          id: e.fact_id,
          src: e.subject.id,
          predicate: e.predicate,
          dst: e.object.id,
          props: JSON.stringify(edgeProps(e, now)),
          source: e.source ?? null,
        }));
        const { n } = await one<{ n: number }>(tx, CREATE_FACTS, { ...p, rows: batch });
        if (n !== batch.length) throw new Error("a durable fact endpoint is missing");
      }
    });
    return triples.map((t) => t.fact_id);
  }

  async loadMeta(repoId: string): Promise<RepoMeta> {
    const m = await this.run("READ", (tx) => one<{ revision: number; doc: string | null }>(tx, META, { repo: repoId }));
    return { revision: Number(m.revision), doc: parseDoc<RepoMemoryDoc>(m.doc) };
  }

  async factsSelected(repoId: string, sel: { ids: string[]; subjects: string[]; predicates: string[] }, limit: number): Promise<RepoFact[]> {
    if (sel.ids.length === 0 && (sel.subjects.length === 0 || sel.predicates.length === 0)) return [];
    const r = await this.run("READ", (tx) => rows<{ fact: RepoFactRow }>(tx, FACTS_SELECTED, { repo: repoId, ...sel, limit: int(limit) }));
    return r.map((x) => toRepoFact(x.fact));
  }

  async factsPage(repoId: string, after: string, limit: number): Promise<RepoFact[]> {
    const r = await this.run("READ", (tx) => rows<{ fact: RepoFactRow }>(tx, FACTS_PAGE, { repo: repoId, after, limit: int(limit) }));
    return r.map((x) => toRepoFact(x.fact));
  }

  async forgetOrigin(repoId: string, sessionId: string): Promise<ForgetResult> {
    return this.run("WRITE", async (tx) => {
      const held = await one<{ revision: number; doc: string | null }>(tx, LOCK, { repo: repoId });
      const f = forgetInDoc(parseDoc<RepoMemoryDoc>(held.doc), sessionId);
      if (f.changed) await tx.run(SET_DOC, { repo: repoId, doc: JSON.stringify(f.doc) });
      const edges = await one<{ n: number; ids: string[] }>(tx, FORGET_FACTS, { repo: repoId, session: sessionId });
      const nodes = await one<{ n: number }>(tx, FORGET_NODES, { repo: repoId, session: sessionId });
      await tx.run(FORGET_ORIGIN, { repo: repoId, session: sessionId });
      return { edges: Number(edges.n), nodes: Number(nodes.n), history: f.removed, fact_ids: [...new Set([...edges.ids, ...f.removedIds])] };
    });
  }

  async pruneSource(repoId: string, source: string, keep: string[], orphanTypePrefix: string): Promise<{ edges: number; nodes: number }> {
    return this.run("WRITE", async (tx) => {
      await tx.run(LOCK, { repo: repoId });
      const edges = await one<{ n: number }>(tx, PRUNE_FACTS, { repo: repoId, source, keep });
      const nodes = await one<{ n: number }>(tx, PRUNE_ORPHANS, { repo: repoId, prefix: orphanTypePrefix });
      return { edges: Number(edges.n), nodes: Number(nodes.n) };
    });
  }

  async searchNodes(repoId: string, tokens: string[], limit: number): Promise<RepoNode[]> {
    const r = await this.run("READ", (tx) => rows<{ node: RepoNode }>(tx, SEARCH_NODES, { repo: repoId, tokens: tokens.map((t) => t.toLowerCase()), limit: int(limit) }));
    return r.map((x) => toNode(x.node));
  }

  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph> {
    return this.run("READ", async (tx) => {
      const root = await rows<{ node: RepoNode }>(tx, NODE_BY_ID, { repo: repoId, id: nodeId });
      if (root.length === 0) return { nodes: [], edges: [] };
      const seen = new Map<string, RepoNode>([[nodeId, toNode(root[0]!.node)]]);
      const edges = new Map<string, Subgraph["edges"][number]>();
      let frontier = [nodeId];
      for (let d = 0; d < depth && frontier.length > 0 && edges.size < limit; d++) {
        const found = await rows<Subgraph["edges"][number]>(tx, EDGES_AROUND, { repo: repoId, frontier, limit: int(limit - edges.size) });
        const next: string[] = [];
        for (const e of found) {
          if (edges.has(e.id)) continue;
          edges.set(e.id, { ...e, origin_session_id: e.origin_session_id ?? null });
          for (const x of [e.src, e.dst]) if (!seen.has(x) && !next.includes(x)) next.push(x);
        }
        if (next.length > 0) for (const { node } of await rows<{ node: RepoNode }>(tx, NODES_BY_IDS, { repo: repoId, ids: next })) seen.set(node.id, toNode(node));
        frontier = next;
      }
      return { nodes: [...seen.values()], edges: [...edges.values()] };
    });
  }

  async factsMatching(repoId: string, tokens: string[], limit: number): Promise<RepoFact[]> {
    if (tokens.length === 0) return [];
    const r = await this.run("READ", (tx) => rows<{ fact: RepoFactRow }>(tx, FACTS_MATCHING, { repo: repoId, tokens: tokens.map((t) => t.toLowerCase()), limit: int(limit) }));
    return r.map((x) => toRepoFact(x.fact));
  }

  async factsTouching(repoId: string, nodeIds: string[], limit: number): Promise<RepoFact[]> {
    if (nodeIds.length === 0) return [];
    const r = await this.run("READ", (tx) => rows<{ fact: RepoFactRow }>(tx, FACTS_TOUCHING, { repo: repoId, ids: nodeIds, limit: int(limit) }));
    return r.map((x) => toRepoFact(x.fact));
  }

  async nodesMissingEmbedding(repoId: string, model: string, limit: number): Promise<RepoNode[]> {
    const r = await this.run("READ", (tx) => rows<{ node: RepoNode }>(tx, MISSING_EMBEDDING, { repo: repoId, model, limit: int(limit) }));
    return r.map((x) => toNode(x.node));
  }

  async setEmbeddings(repoId: string, model: string, vectors: Array<{ id: string; vector: number[] }>): Promise<void> {
    if (vectors.length === 0) return;
    await this.run("WRITE", async (tx) => {
      for (let i = 0; i < vectors.length; i += 500) await tx.run(SET_EMBEDDINGS, { repo: repoId, model, now: int(Date.now()), rows: vectors.slice(i, i + 500) });
    });
  }

  async embeddings(repoId: string, model: string, limit: number): Promise<Array<{ id: string; vector: number[] }>> {
    return this.run("READ", (tx) => rows<{ id: string; vector: number[] }>(tx, EMBEDDINGS, { repo: repoId, model, limit: int(limit) }));
  }
}


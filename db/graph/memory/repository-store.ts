/** In-memory RepositoryMemoryStore (unit tests); same rules as the PostgreSQL adapter. */
import { AppError, limitError } from "../../../core/errors";
import { MAX_REPO_NODES } from "../../../core/limits";
import { nameKey } from "../../../core/memory/ids";
import { checkRepoDoc, checkRepoFactQuota, edgeProps, forgetInDoc, type EdgeProps } from "../../../core/memory/repository-history";
import {
  FACT_LABEL,
  NODE_LABEL,
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

/** Tokens are matched case-insensitively against the lower-cased name; empty ones are dropped. */
function lowerTokens(tokens: string[]): string[] {
  return [...new Set(tokens.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
}

interface Edge {
  id: string;
  src: string;
  predicate: string;
  dst: string;
  props: EdgeProps;
  origin_session_id: string | null;
}

interface Repo {
  nodes: Map<string, RepoNode & { vectors: Map<string, number[]> }>;
  edges: Map<string, Edge>;
  revision: number;
  doc: RepoMemoryDoc;
}

export class InMemoryRepositoryStore implements RepositoryMemoryStore {
  readonly kind = "memory";
  private readonly repos = new Map<string, Repo>();

  private repo(id: string): Repo {
    let r = this.repos.get(id);
    if (!r) {
      r = { nodes: new Map(), edges: new Map(), revision: 0, doc: {} };
      this.repos.set(id, r);
    }
    return r;
  }

  private view(r: Repo, e: Edge): RepoFact {
    const n = (id: string) => {
      const x = r.nodes.get(id)!;
      return { id: x.id, name: x.name, type: x.type };
    };
    return { fact_id: e.id, subject: n(e.src), predicate: e.predicate, object: n(e.dst), origin_session_id: e.origin_session_id, ...structuredClone(e.props) };
  }

  async upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number, change?: RepoChange): Promise<string[]> {
    const r = this.repo(repoId);
    if (change) {
      if (change.expectedRevision !== r.revision) throw new AppError("revision_conflict");
      if (!change.end.every((x) => r.edges.has(x.fact_id))) throw new AppError("revision_conflict");
      checkRepoDoc(repoId, change.doc);
    }
    const ending = new Set((change?.end ?? []).map((x) => x.fact_id));
    const newNodes = new Set<string>();
    const newEdges = new Set<string>();
    for (const t of triples) {
      for (const n of [t.subject, t.object]) if (!r.nodes.has(n.id)) newNodes.add(n.id);
      if (!r.edges.has(t.fact_id) || ending.has(t.fact_id)) newEdges.add(t.fact_id);
    }
    if (r.nodes.size + newNodes.size > MAX_REPO_NODES) throw limitError("repo_nodes", MAX_REPO_NODES);
    if (newEdges.size > 0 || change) checkRepoFactQuota(r.edges.size - ending.size + newEdges.size, change ? change.doc : r.doc);
    r.revision++;
    for (const id of ending) r.edges.delete(id);
    if (change) r.doc = structuredClone(change.doc);
    for (const t of triples) {
      for (const n of [t.subject, t.object]) {
        if (!r.nodes.has(n.id)) r.nodes.set(n.id, { id: n.id, label: NODE_LABEL, name: n.name, type: n.type, origin_session_id: origin.session_id, vectors: new Map() });
      }
      if (!r.edges.has(t.fact_id)) {
        r.edges.set(t.fact_id, { id: t.fact_id, src: t.subject.id, predicate: t.predicate, dst: t.object.id, origin_session_id: origin.session_id, props: edgeProps(t, now) });
      }
    }
    return triples.map((t) => t.fact_id);
  }

  async searchNodes(repoId: string, tokens: string[], limit: number): Promise<RepoNode[]> {
    const wanted = lowerTokens(tokens);
    const out: RepoNode[] = [];
    for (const n of this.repo(repoId).nodes.values()) {
      if (out.length >= limit) break;
      const key = nameKey(n.name);
      if (wanted.every((t) => key.includes(t))) out.push({ id: n.id, label: n.label, name: n.name, type: n.type, origin_session_id: n.origin_session_id });
    }
    return out;
  }

  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph> {
    const r = this.repo(repoId);
    if (!r.nodes.has(nodeId)) return { nodes: [], edges: [] };
    const seen = new Set([nodeId]);
    const edges = new Map<string, Edge>();
    let frontier = [nodeId];
    for (let d = 0; d < depth && frontier.length > 0 && edges.size < limit; d++) {
      const next: string[] = [];
      for (const e of r.edges.values()) {
        if (edges.size >= limit) break;
        if (edges.has(e.id) || !(frontier.includes(e.src) || frontier.includes(e.dst))) continue;
        edges.set(e.id, e);
        for (const x of [e.src, e.dst]) {
          if (seen.has(x)) continue;
          seen.add(x);
          next.push(x);
        }
      }
      frontier = next;
    }
    const node = (id: string) => {
      const n = r.nodes.get(id)!;
      return { id: n.id, label: n.label, name: n.name, type: n.type, origin_session_id: n.origin_session_id };
    };
    return {
      nodes: [...seen].map(node),
      edges: [...edges.values()].map((e) => ({ id: e.id, label: FACT_LABEL, src: e.src, predicate: e.predicate, dst: e.dst, origin_session_id: e.origin_session_id })),
    };
  }

  async factsMatching(repoId: string, tokens: string[], limit: number): Promise<RepoFact[]> {
    const r = this.repo(repoId);
    const wanted = lowerTokens(tokens);
    const hit = (id: string) => {
      const k = nameKey(r.nodes.get(id)!.name);
      return wanted.some((t) => k.includes(t));
    };
    const out: RepoFact[] = [];
    for (const e of r.edges.values()) {
      if (out.length >= limit) break;
      if (hit(e.src) || hit(e.dst)) out.push(this.view(r, e));
    }
    return out;
  }

  async factsTouching(repoId: string, nodeIds: string[], limit: number): Promise<RepoFact[]> {
    const r = this.repo(repoId);
    const ids = new Set(nodeIds);
    const out: RepoFact[] = [];
    for (const e of r.edges.values()) {
      if (out.length >= limit) break;
      if (ids.has(e.src) || ids.has(e.dst)) out.push(this.view(r, e));
    }
    return out;
  }

  async nodesMissingEmbedding(repoId: string, model: string, limit: number): Promise<RepoNode[]> {
    return [...this.repo(repoId).nodes.values()]
      .filter((n) => !n.vectors.has(model))
      .slice(0, limit)
      .map((n) => ({ id: n.id, label: n.label, name: n.name, type: n.type, origin_session_id: n.origin_session_id }));
  }

  async setEmbeddings(repoId: string, model: string, vectors: Array<{ id: string; vector: number[] }>): Promise<void> {
    const r = this.repo(repoId);
    for (const v of vectors) r.nodes.get(v.id)?.vectors.set(model, [...v.vector]);
  }

  async embeddings(repoId: string, model: string, limit: number): Promise<Array<{ id: string; vector: number[] }>> {
    const out: Array<{ id: string; vector: number[] }> = [];
    for (const n of this.repo(repoId).nodes.values()) {
      if (out.length >= limit) break;
      const v = n.vectors.get(model);
      if (v) out.push({ id: n.id, vector: v });
    }
    return out;
  }

  async loadMeta(repoId: string): Promise<RepoMeta> {
    const r = this.repo(repoId);
    return { revision: r.revision, doc: structuredClone(r.doc) };
  }

  async factsSelected(repoId: string, sel: { ids: string[]; subjects: string[]; predicates: string[] }, limit: number): Promise<RepoFact[]> {
    const r = this.repo(repoId);
    const ids = new Set(sel.ids);
    const subjects = new Set(sel.subjects);
    const predicates = new Set(sel.predicates);
    return [...r.edges.values()]
      .filter((e) => ids.has(e.id) || (subjects.has(e.src) && predicates.has(e.predicate)))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((e) => this.view(r, e));
  }

  async factsPage(repoId: string, after: string, limit: number): Promise<RepoFact[]> {
    const r = this.repo(repoId);
    return [...r.edges.values()]
      .filter((e) => e.id > after)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((e) => this.view(r, e));
  }

  async forgetOrigin(repoId: string, sessionId: string): Promise<ForgetResult> {
    const r = this.repo(repoId);
    r.revision++;
    const f = forgetInDoc(r.doc, sessionId);
    r.doc = f.doc;
    let edges = 0;
    let nodes = 0;
    const ids: string[] = [];
    for (const [id, e] of r.edges) if (e.origin_session_id === sessionId && r.edges.delete(id) && ids.push(id)) edges++;
    const touched = new Set<string>();
    for (const e of r.edges.values()) touched.add(e.src).add(e.dst);
    for (const [id, n] of r.nodes) {
      if (n.origin_session_id !== sessionId) continue;
      if (!touched.has(id)) {
        r.nodes.delete(id);
        nodes++;
      } else n.origin_session_id = null;
    }
    return { edges, nodes, history: f.removed, fact_ids: [...new Set([...ids, ...f.removedIds])] };
  }

  async pruneSource(repoId: string, source: string, keep: string[], orphanTypePrefix: string): Promise<{ edges: number; nodes: number }> {
    const r = this.repo(repoId);
    r.revision++;
    const kept = new Set(keep);
    let edges = 0;
    let nodes = 0;
    for (const [id, e] of r.edges) if (e.props.source === source && !kept.has(id) && r.edges.delete(id)) edges++;
    const touched = new Set<string>();
    for (const e of r.edges.values()) touched.add(e.src).add(e.dst);
    for (const [id, n] of r.nodes) if (n.type.startsWith(orphanTypePrefix) && !touched.has(id) && r.nodes.delete(id)) nodes++;
    return { edges, nodes };
  }
}

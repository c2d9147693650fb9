/**
 * HugeGraph RepositoryMemoryStore (MEMORY_STORE=hugegraph), MEM-6.
 *
 *  Node (vertex, id `rn:` + sha256(repo, eid)) {repo_id, eid, name, name_key, type, props, origin_session_id?,
 *        embedding_model?, embedding? (JSON text), created_at, updated_at}
 *  FACT (Node→Node, multiple, sort key fact_id) {repo_id, fact_id, predicate, props, origin_session_id?, created_at}
 *  RepoMemoryLock (vertex, id `rml:` + sha256(repo)) {repo_id, version, node_count, fact_count}
 *
 * Writes (upsert, embeddings, re-ingest prune) are serialized per repository:
 * an async mutex keyed by repository in this process, and one script per
 * write that runs under a per-repository JVM monitor on the HugeGraph server,
 * checks MAX_REPO_NODES / MAX_REPO_FACTS against the counters kept on the
 * repository's lock vertex, writes, updates the counters and commits before
 * the monitor is released (not a cluster lock: one server instance). A new
 * write records the writing session as `origin_session_id`; a write without
 * one leaves the property absent (read back as null) and existing records
 * keep theirs — no session is ever fabricated. Scripts are constants
 * (repository-scripts.ts); every value is a binding; reads recheck `repo_id`
 * on every edge and both of its endpoints.
 */
import { AppError, limitError } from "../../../core/errors";
import { MAX_REPO_FACTS, MAX_REPO_NODES } from "../../../core/limits";
import { nameKey } from "../../../core/memory/ids";
import { checkRepoDoc, edgeProps, forgetInDoc, repoHistoryOf } from "../../../core/memory/repository-history";
import type { DurableTriple, ForgetResult, RepoChange, RepoFact, RepoMemoryDoc, RepoMeta, RepoNode, RepositoryMemoryStore, Subgraph } from "../../../core/memory/repository-store";
import { HugeGraphRefusal, KeyedMutex, type HugeGraphClient } from "./client";
import * as R from "./repository-scripts";
import { ensureSchema, REPOSITORY_SCHEMA, vid } from "./schema";
import { toRepoFact, type RepoFactRow } from "../graph-rows";

export interface HugeGraphRepositoryStoreOptions {
  /** Awaited before every operation (e.g. `once(...)` of the schema). */
  schema?: (() => Promise<void>) | undefined;
}

function toNode(n: RepoNode): RepoNode {
  return { id: n.id, label: n.label, name: n.name, type: n.type, origin_session_id: n.origin_session_id ?? null };
}

/** Tokens are matched case-insensitively against `name_key` (the lower-cased name); empty ones are dropped. */
function lowerTokens(tokens: string[]): string[] {
  return [...new Set(tokens.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
}

export class HugeGraphRepositoryStore implements RepositoryMemoryStore {
  readonly kind = "hugegraph";
  private readonly mutex = new KeyedMutex();
  private readonly schema: (() => Promise<void>) | undefined;

  constructor(
    private readonly client: HugeGraphClient,
    opts: HugeGraphRepositoryStoreOptions = {},
  ) {
    this.schema = opts.schema;
  }

  /** Creates property keys, labels and indexes (idempotent). */
  ensureSchema(): Promise<void> {
    return ensureSchema(this.client, REPOSITORY_SCHEMA);
  }

  private async read<T>(script: string, repoId: string, bindings: Record<string, unknown>): Promise<T> {
    await this.schema?.();
    return this.client.json<T>(script, { repo: repoId, ...bindings });
  }

  private async write<T>(script: string, repoId: string, bindings: Record<string, unknown>): Promise<T> {
    await this.schema?.();
    return this.mutex.run(repoId, async () => {
      try {
        return await this.client.json<T>(script, { repo: repoId, lock_vid: vid.repoLock(repoId), ...bindings });
      } catch (err) {
        if (err instanceof HugeGraphRefusal) {
          if (err.code === "repo_nodes") throw limitError("repo_nodes", MAX_REPO_NODES);
          if (err.code === "repo_facts") throw limitError("repo_facts", MAX_REPO_FACTS);
          if (err.code === "revision_conflict") throw new AppError("revision_conflict");
        }
        throw err;
      }
    });
  }

  async upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number, change?: RepoChange): Promise<string[]> {
    if (change) checkRepoDoc(repoId, change.doc);
    const nodes = new Map<string, { vid: string; eid: string; name: string; name_key: string; type: string }>();
    const facts = new Map<string, { s: string; o: string; f: string; p: string; props: string }>();
    // The first occurrence in a batch wins, as it does against stored records.
    for (const t of triples) {
      for (const n of [t.subject, t.object]) if (!nodes.has(n.id)) nodes.set(n.id, { vid: vid.node(repoId, n.id), eid: n.id, name: n.name, name_key: nameKey(n.name), type: n.type });
      if (!facts.has(t.fact_id)) {
        facts.set(t.fact_id, {
          s: vid.node(repoId, t.subject.id),
          o: vid.node(repoId, t.object.id),
          f: t.fact_id,
          p: t.predicate,
          props: JSON.stringify(edgeProps(t, now)),
        });
      }
    }
    if (nodes.size > 0 || change) {
      await this.write(R.UPSERT, repoId, {
        nodes: [...nodes.values()],
        facts: [...facts.values()],
        origin: origin.session_id,
        now,
        expected: change ? change.expectedRevision : null,
        end: (change?.end ?? []).map((x) => ({ s: vid.node(repoId, x.subject_id), f: x.fact_id })),
        doc: change ? JSON.stringify(change.doc) : null,
        hist: change ? repoHistoryOf(change.doc).length : null,
        max_nodes: MAX_REPO_NODES,
        max_facts: MAX_REPO_FACTS,
      });
    }
    return triples.map((t) => t.fact_id);
  }

  async searchNodes(repoId: string, tokens: string[], limit: number): Promise<RepoNode[]> {
    const r = await this.read<RepoNode[]>(R.SEARCH_NODES, repoId, { tokens: lowerTokens(tokens), lim: limit });
    return r.map(toNode);
  }

  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph> {
    const r = await this.read<Subgraph>(R.SUBGRAPH, repoId, { root_vid: vid.node(repoId, nodeId), depth, lim: limit });
    return { nodes: r.nodes.map(toNode), edges: r.edges.map((e) => ({ ...e, origin_session_id: e.origin_session_id ?? null })) };
  }

  async factsMatching(repoId: string, tokens: string[], limit: number): Promise<RepoFact[]> {
    const wanted = lowerTokens(tokens);
    if (wanted.length === 0) return [];
    return (await this.read<RepoFactRow[]>(R.FACTS_MATCHING, repoId, { tokens: wanted, lim: limit })).map(toRepoFact);
  }

  async factsTouching(repoId: string, nodeIds: string[], limit: number): Promise<RepoFact[]> {
    if (nodeIds.length === 0) return [];
    const vids = [...new Set(nodeIds)].map((id) => vid.node(repoId, id));
    return (await this.read<RepoFactRow[]>(R.FACTS_TOUCHING, repoId, { vids, lim: limit })).map(toRepoFact);
  }

  async nodesMissingEmbedding(repoId: string, model: string, limit: number): Promise<RepoNode[]> {
    return (await this.read<RepoNode[]>(R.MISSING_EMBEDDING, repoId, { model, lim: limit })).map(toNode);
  }

  async setEmbeddings(repoId: string, model: string, vectors: Array<{ id: string; vector: number[] }>): Promise<void> {
    if (vectors.length === 0) return;
    const rows = vectors.map((v) => ({ vid: vid.node(repoId, v.id), vector: JSON.stringify(v.vector) }));
    await this.write(R.SET_EMBEDDINGS, repoId, { model, rows, now: Date.now() });
  }

  async embeddings(repoId: string, model: string, limit: number): Promise<Array<{ id: string; vector: number[] }>> {
    const r = await this.read<Array<{ id: string; vector: string }>>(R.EMBEDDINGS, repoId, { model, lim: limit });
    return r.map((x) => ({ id: x.id, vector: JSON.parse(x.vector) as number[] }));
  }

  async loadMeta(repoId: string): Promise<RepoMeta> {
    const m = await this.read<{ revision: number; doc: string | null }>(R.META, repoId, { lock_vid: vid.repoLock(repoId) });
    return { revision: Number(m.revision), doc: m.doc ? (JSON.parse(m.doc) as RepoMemoryDoc) : {} };
  }

  async factsSelected(repoId: string, sel: { ids: string[]; subjects: string[]; predicates: string[] }, limit: number): Promise<RepoFact[]> {
    if (sel.ids.length === 0 && (sel.subjects.length === 0 || sel.predicates.length === 0)) return [];
    const svids = [...new Set(sel.subjects)].map((id) => vid.node(repoId, id));
    return (await this.read<RepoFactRow[]>(R.FACTS_SELECTED, repoId, { ids: sel.ids, svids, predicates: sel.predicates, lim: limit })).map(toRepoFact);
  }

  async factsPage(repoId: string, after: string, limit: number): Promise<RepoFact[]> {
    return (await this.read<RepoFactRow[]>(R.FACTS_PAGE, repoId, { after, lim: limit })).map(toRepoFact);
  }

  /** The history rewrite is computed here and stored by the script if the revision has not moved (another process's write); retried. */
  async forgetOrigin(repoId: string, sessionId: string): Promise<ForgetResult> {
    for (let attempt = 1; ; attempt++) {
      const meta = await this.loadMeta(repoId);
      const f = forgetInDoc(meta.doc, sessionId);
      try {
        const r = await this.write<{ edges: number; nodes: number; ids: string[] }>(R.FORGET_ORIGIN, repoId, { session: sessionId, expected: meta.revision, doc: f.changed ? JSON.stringify(f.doc) : null });
        return { edges: r.edges, nodes: r.nodes, history: f.removed, fact_ids: [...new Set([...r.ids, ...f.removedIds])] };
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= 5) throw err;
      }
    }
  }

  async pruneSource(repoId: string, source: string, keep: string[], orphanTypePrefix: string): Promise<{ edges: number; nodes: number }> {
    return this.write<{ edges: number; nodes: number }>(R.PRUNE_SOURCE, repoId, { source, keep, prefix: orphanTypePrefix });
  }
}

/**
 * Repository memory operations (MEM-6, HTTP-4b, MCP-4): the functions behind
 * `upsert_graph_triples`, `search_graph_nodes`, `query_subgraph`, durable
 * recall, `POST /memory/index` and promotion. Callers check repository
 * permission first (read for recall/search/subgraph, write for upsert,
 * promotion and indexing). Every operation that writes or embeds takes the
 * authorised Identity: durable writes record its session as
 * `origin_session_id`, embedding runs under it.
 */
import { AppError } from "../errors";
import type { Identity } from "../execution/identity";
import { MAX_EMBED_BATCH, MAX_ENTITY_NAME_CHARS, MAX_PROMOTE_FACT_IDS, MAX_RECALL_LIMIT, MAX_SOURCE_CHARS, MAX_TRIPLES_PER_UPSERT } from "../limits";
import { redact } from "../redact";
import { rankFacts, type RecallResult } from "../recall/recall";
import { tokenize } from "../recall/tokenize";
import { cosine } from "./vector-index";
import type { Embedder } from "./embedder";
import { assertAuthorisedIdentity } from "./embedder";
import type { ErasureReceipt, SessionMemoryEngine, MemoryScope } from "./engine";
import { normalizeName, repoFactId, repoNodeId, SESSION_FACT_ID } from "./ids";
import type { DurableTriple, RepoNode, RepositoryMemoryStore, Subgraph } from "./repository-store";
import { PREDICATE_PATTERN, TYPE_PATTERN } from "./snapshot";
import type { TripleInput } from "./types";

/** Bounds of one durable recall: lexical candidates and embedded nodes scanned. */
export const REPO_RECALL_CANDIDATES = 2000;
export const REPO_DENSE_SCAN = 5000;
/** Dense hits of one durable recall that join the fusion. */
export const REPO_DENSE_HITS = 64;

function bad(field: string): AppError {
  return new AppError("validation_failed", { message: `The request is not valid: ${field}.`, details: { field } });
}

async function durableTriples(repoId: string, triples: TripleInput[], source: string | undefined): Promise<DurableTriple[]> {
  if (!Array.isArray(triples) || triples.length < 1 || triples.length > MAX_TRIPLES_PER_UPSERT) throw bad("triples");
  const src = source === undefined ? undefined : (await redact(source.slice(0, MAX_SOURCE_CHARS))).text;
  const out: DurableTriple[] = [];
  for (const [i, t] of triples.entries()) {
    if (typeof t.predicate !== "string" || !PREDICATE_PATTERN.test(t.predicate)) throw bad(`triples.${i}.predicate`);
    const side = async (name: unknown, type: unknown, f: string) => {
      if (typeof name !== "string") throw bad(`triples.${i}.${f}`);
      const n = normalizeName(name);
      if (n.length < 1 || n.length > MAX_ENTITY_NAME_CHARS) throw bad(`triples.${i}.${f}`);
      const ty = type ?? "";
      if (typeof ty !== "string" || !TYPE_PATTERN.test(ty)) throw bad(`triples.${i}.${f}_type`);
      const clean = (await redact(n)).text.slice(0, MAX_ENTITY_NAME_CHARS);
      return { id: repoNodeId(repoId, ty, clean), name: clean, type: ty };
    };
    const s = await side(t.subject, t.subject_type, "subject");
    const o = await side(t.object, t.object_type, "object");
    out.push({ fact_id: repoFactId(repoId, s.id, t.predicate, o.id), subject: s, predicate: t.predicate, object: o, source: src });
  }
  return out;
}

export interface RepositoryMemoryDeps {
  repo: RepositoryMemoryStore;
  clock: { now(): Date };
  embedder?: Embedder | undefined;
  onWarning?: (event: string, code: string) => void;
}

export class RepositoryMemory {
  constructor(private readonly deps: RepositoryMemoryDeps) {}

  get store(): RepositoryMemoryStore {
    return this.deps.repo;
  }

  /** Durable upsert (HTTP-4b, `upsert_graph_triples`): records the writing session as origin. */
  async upsertTriples(identity: Identity, repoId: string, input: { triples: TripleInput[]; source?: string | undefined }): Promise<{ facts: Array<{ fact_id: string; subject_id: string; predicate: string; object_id: string }> }> {
    assertAuthorisedIdentity(identity);
    const triples = await durableTriples(repoId, input.triples, input.source);
    await this.deps.repo.upsertFacts(repoId, triples, { session_id: identity.session_id }, this.deps.clock.now().getTime());
    await this.index(identity, repoId).catch((err: unknown) => this.deps.onWarning?.("embedding_failed", err instanceof AppError ? err.code : "internal"));
    return { facts: triples.map((t) => ({ fact_id: t.fact_id, subject_id: t.subject.id, predicate: t.predicate, object_id: t.object.id })) };
  }

  async searchNodes(repoId: string, query: string, limit: number): Promise<RepoNode[]> {
    const tokens = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    return this.deps.repo.searchNodes(repoId, tokens, Math.min(Math.max(1, limit), 200));
  }

  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph> {
    return this.deps.repo.querySubgraph(repoId, nodeId, Math.min(Math.max(1, depth), 3), Math.min(Math.max(1, limit), 500));
  }

  /** Durable recall: bounded BM25 over candidate facts + exact dense similarity over embedded nodes, fused by RRF. */
  async recall(
    identity: Identity,
    repoId: string,
    input: { query: string; limit?: number | undefined; mode?: "fused" | "lexical" | "dense" },
  ): Promise<{ results: RecallResult[] }> {
    assertAuthorisedIdentity(identity);
    const limit = Math.min(Math.max(1, input.limit ?? 10), MAX_RECALL_LIMIT);
    const tokens = [...new Set(tokenize(input.query))].slice(0, 32);
    // The lexical candidates do not depend on the query's vector: the store reads them while it is embedded.
    const lexicalRead = this.deps.repo.factsMatching(repoId, tokens, REPO_RECALL_CANDIDATES);
    lexicalRead.catch(() => undefined);
    const sims = new Map<string, number>();
    const { embedder } = this.deps;
    if (embedder && input.mode !== "lexical") {
      try {
        const [q] = await embedder.embed(identity, [input.query]);
        const store = this.deps.repo;
        // Scored where the vectors live when the store can (PostgreSQL/PGlite); in process otherwise.
        const scored = store.nearestEmbeddings
          ? await store.nearestEmbeddings(repoId, embedder.model, q!, REPO_DENSE_HITS, REPO_DENSE_SCAN)
          : (await store.embeddings(repoId, embedder.model, REPO_DENSE_SCAN)).map((n) => ({ id: n.id, score: cosine(q!, n.vector) }));
        const usable = scored.filter((x) => Number.isFinite(x.score) && x.score > 0);
        usable.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
        for (const s of usable.slice(0, REPO_DENSE_HITS)) sims.set(s.id, s.score);
      } catch (err) {
        this.deps.onWarning?.("vector_search_failed", err instanceof AppError ? err.code : "internal");
      }
    }
    const lexical = await lexicalRead;
    const dense = sims.size > 0 ? await this.deps.repo.factsTouching(repoId, [...sims.keys()], REPO_RECALL_CANDIDATES) : [];
    const facts = new Map([...lexical, ...dense].map((f) => [f.fact_id, f]));
    return { results: rankFacts([...facts.values()], input.query, sims, limit, input.mode ?? "fused", embedder?.denseWeight) };
  }

  /** `POST /memory/index`: embeds one bounded batch of durable nodes that lack an embedding. */
  async index(identity: Identity, repoId: string, batch = MAX_EMBED_BATCH): Promise<{ indexed: number; remaining: boolean }> {
    const e = await this.embedMissing(identity, repoId, batch, 1);
    if (e.vectors.length > 0) await this.deps.repo.setEmbeddings(repoId, e.model, e.vectors);
    return { indexed: e.vectors.length, remaining: e.remaining };
  }

  /**
   * Embeds up to `batches` batches of durable nodes that lack an embedding, writing nothing:
   * the embedding job writes the vectors in its fenced persist step (workers/pools/embedding.ts).
   */
  async embedMissing(
    identity: Identity,
    repoId: string,
    batch = MAX_EMBED_BATCH,
    batches = 1,
  ): Promise<{ model: string; vectors: Array<{ id: string; vector: number[] }>; remaining: boolean }> {
    assertAuthorisedIdentity(identity);
    const { embedder } = this.deps;
    if (!embedder) return { model: "", vectors: [], remaining: false };
    // A model whose files fail their checks hands over to its fallback here, before the model name selects the nodes.
    await embedder.status?.();
    const size = Math.min(Math.max(1, batch), MAX_EMBED_BATCH);
    const want = size * Math.max(1, batches);
    const nodes = await this.deps.repo.nodesMissingEmbedding(repoId, embedder.model, want + 1);
    const todo = nodes.slice(0, want);
    const vectors: Array<{ id: string; vector: number[] }> = [];
    for (let i = 0; i < todo.length; i += size) {
      const chunk = todo.slice(i, i + size);
      const v = await embedder.embed(identity, chunk.map((n) => `${n.name} ${n.type}`));
      chunk.forEach((n, k) => vectors.push({ id: n.id, vector: v[k]! }));
    }
    return { model: embedder.model, vectors, remaining: nodes.length > want };
  }

  /**
   * Promotion (MEM-5): copies 1..50 of the caller's session facts into the
   * namespace's repository. All or nothing: an ID that is not a fact of this
   * session's namespace (unknown, foreign, guessed) refuses the whole call.
   * Session facts stay; later clearing the session leaves the copies.
   */
  async promote(session: SessionMemoryEngine, scope: MemoryScope, factIds: string[]): Promise<{ promoted: string[] }> {
    const ids = [...new Set(factIds)];
    if (ids.length < 1 || ids.length > MAX_PROMOTE_FACT_IDS || !ids.every((id) => typeof id === "string" && SESSION_FACT_ID.test(id))) throw bad("fact_ids");
    const facts = await session.factsById(scope, ids);
    if (facts.length !== ids.length) throw new AppError("not_found", { message: "Some fact IDs are not facts of this session's memory." });
    const byId = new Map(facts.map((f) => [f.fact_id, f]));
    // Lineage travels with each copy: the session fact, since when it was current, what it replaced.
    const lineage = await session.lineage(scope, ids);
    const triples: DurableTriple[] = [];
    for (const id of ids) {
      const f = byId.get(id)!;
      const t = { subject: f.subject.name, subject_type: f.subject.type, predicate: f.predicate, object: f.object.name, object_type: f.object.type };
      triples.push(...(await durableTriples(scope.ns, [t], lineage.get(id) ?? "promoted from session memory")));
    }
    assertAuthorisedIdentity(scope.identity);
    await this.deps.repo.upsertFacts(scope.ns, triples, { session_id: scope.identity.session_id }, this.deps.clock.now().getTime());
    await this.index(scope.identity, scope.ns).catch((err: unknown) => this.deps.onWarning?.("embedding_failed", err instanceof AppError ? err.code : "internal"));
    return { promoted: triples.map((t) => t.fact_id) };
  }

  /**
   * Erasure for a repository admin: removes from the repository's durable memory everything one
   * session wrote (promoted or upserted) and the nodes only it used, with their embeddings.
   * Answers a receipt.
   */
  async forgetSession(repoId: string, sessionId: string): Promise<ErasureReceipt> {
    if (typeof sessionId !== "string" || sessionId.length < 1 || sessionId.length > 256) throw bad("session_id");
    const r = await this.deps.repo.forgetOrigin(repoId, sessionId);
    return {
      scope: "promoted",
      session_id: sessionId,
      stores: [{ store: `repository:${this.deps.repo.kind}`, entities: r.nodes, facts: r.edges, history: 0, status: "done" }],
      done: true,
    };
  }
}

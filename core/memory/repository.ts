/**
 * Repository memory operations (MEM-6, HTTP-4b, MCP-4): the functions behind
 * `upsert_graph_triples`, `search_graph_nodes`, `query_subgraph`, durable
 * recall, `POST /memory/index` and promotion. Callers check repository
 * permission first (read for recall/search/subgraph, write for upsert,
 * promotion and indexing). Every operation that writes or embeds takes the
 * authorised Identity: durable writes record its session as
 * `origin_session_id`, embedding runs under it.
 */
import { AppError, limitError } from "../errors";
import { INGEST_SOURCE } from "../ingest/graph";
import type { Identity } from "../execution/identity";
import { MAX_EMBED_BATCH, MAX_PROMOTE_FACT_IDS, MAX_REPO_TRANSFER_FACTS, MAX_SINGLE_VALUED_PREDICATES, MAX_SUPERSEDES } from "../limits";
import type { RecallResult } from "../recall/recall";
import type { Embedder } from "./embedder";
import { assertAuthorisedIdentity } from "./embedder";
import type { ErasureReceipt, SessionMemoryEngine, MemoryScope } from "./engine";
import { planSupersession } from "./history";
import { REPO_FACT_ID, SESSION_FACT_ID } from "./ids";
import { bad } from "./input";
import { endRepoFact, repoCurrentAt, repoDoc, repoHistoryOf, repoSingleValuedOf } from "./repository-history";
import { durableTriples, importedRepoContent, type RepoUpsertInput } from "./repository-input";
import { recallRepository } from "./repository-recall";
import type { DurableTriple, RepoFact, RepoNode, RepositoryMemoryStore, Subgraph } from "./repository-store";
import { exportRepoLines } from "./repository-transfer";
import { repoFactView, versionAsFact, type RepoFactHistoryEntry } from "./repository-views";
import { PREDICATE_PATTERN } from "./snapshot";

/** Live facts of the slots one write touches, read to decide what it ends (a slot holds one fact once declared). */
export const REPO_SLOT_FACTS = 2048;
/** Revision conflicts a durable write that ends facts retries by re-reading (as session memory does). */
const REVISION_RETRIES = 3;

function notFound(): AppError {
  return new AppError("not_found", { message: "No such fact in this repository's memory." });
}

/** Facts read per page when scanning a repository's live facts for its memory facts (export, import's emptiness check). */
const SCAN_PAGE = 2000;

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

  /**
   * Durable upsert (HTTP-4b, `upsert_graph_triples`): records the writing session as origin. Facts named in
   * `supersedes` (all or nothing: 404 otherwise) and live facts of a single-valued slot the write gives another
   * object stop being current: they leave the graph for the repository's history, replaced by this write's facts
   * (the same decision as session memory's, core/memory/history.ts planSupersession), checked against the
   * repository's revision and retried on a conflict.
   */
  async upsertTriples(
    identity: Identity,
    repoId: string,
    input: RepoUpsertInput,
  ): Promise<{ facts: Array<{ fact_id: string; subject_id: string; predicate: string; object_id: string }>; superseded: string[] }> {
    assertAuthorisedIdentity(identity);
    const supersedes = input.supersedes ?? [];
    if (!Array.isArray(supersedes) || supersedes.length > MAX_SUPERSEDES || !supersedes.every((id) => typeof id === "string" && REPO_FACT_ID.test(id))) throw bad("supersedes");
    const declared = input.single_valued ?? [];
    if (!Array.isArray(declared) || declared.length > MAX_SINGLE_VALUED_PREDICATES || !declared.every((p) => typeof p === "string" && PREDICATE_PATTERN.test(p))) {
      throw bad("single_valued");
    }
    const observedAt = input.observed_at;
    if (observedAt !== undefined && (!Number.isSafeInteger(observedAt) || observedAt < 0 || observedAt > this.deps.clock.now().getTime())) throw bad("observed_at");
    const triples = (await durableTriples(repoId, input.triples, input.source)).map((t) => (observedAt !== undefined ? { ...t, observed_at: observedAt } : t));
    const ended = await this.write(identity, repoId, triples, supersedes, declared);
    await this.index(identity, repoId).catch((err: unknown) => this.deps.onWarning?.("embedding_failed", err instanceof AppError ? err.code : "internal"));
    return { facts: triples.map((t) => ({ fact_id: t.fact_id, subject_id: t.subject.id, predicate: t.predicate, object_id: t.object.id })), superseded: ended };
  }

  /**
   * Writes triples, ending what they supersede. A plain write (nothing named, no single-valued predicate
   * involved, nothing declared) is the adapter's idempotent upsert; otherwise the meta document and the
   * slots' live facts are read, the ended facts go to history, and the adapter applies it all at the revision read.
   */
  private async write(identity: Identity, repoId: string, triples: DurableTriple[], supersedes: string[], declared: string[]): Promise<string[]> {
    const store = this.deps.repo;
    const origin = { session_id: identity.session_id };
    for (let attempt = 1; ; attempt++) {
      const meta = await store.loadMeta(repoId);
      const now = this.deps.clock.now().getTime();
      const single = new Set([...repoSingleValuedOf(meta.doc), ...declared]);
      const written = triples.map((t) => ({ fact_id: t.fact_id, subject_id: t.subject.id, predicate: t.predicate }));
      const slots = written.filter((w) => single.has(w.predicate));
      const newDeclared = declared.some((p) => !repoSingleValuedOf(meta.doc).includes(p));
      if (supersedes.length === 0 && slots.length === 0 && !newDeclared) {
        await store.upsertFacts(repoId, triples, origin, now);
        return [];
      }
      const live = await store.factsSelected(
        repoId,
        { ids: supersedes, subjects: [...new Set(slots.map((w) => w.subject_id))], predicates: [...new Set(slots.map((w) => w.predicate))] },
        REPO_SLOT_FACTS + supersedes.length,
      );
      const byId = new Map(live.map((f) => [f.fact_id, f]));
      // All or nothing, and the ID is not echoed: the same answer for a foreign, guessed or ended fact.
      if (!supersedes.every((id) => byId.has(id))) throw notFound();
      const ended = planSupersession(
        live.map((f) => ({ fact_id: f.fact_id, subject_id: f.subject.id, predicate: f.predicate })),
        written,
        supersedes,
        single,
      );
      const history = [...repoHistoryOf(meta.doc)];
      for (const [id, by] of ended) history.push(endRepoFact(byId.get(id)!, identity.session_id, now, "superseded", [...by]));
      const change = {
        expectedRevision: meta.revision,
        end: [...ended.keys()].map((id) => ({ fact_id: id, subject_id: byId.get(id)!.subject.id })),
        doc: repoDoc(history, [...single]),
      };
      try {
        await store.upsertFacts(repoId, triples, origin, now, change);
        return [...ended.keys()];
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
  }

  /** Ends one live durable fact (repository write permission): it leaves the graph for the history. Unknown → 404. */
  async retract(identity: Identity, repoId: string, id: string): Promise<{ fact_id: string; valid_to: string }> {
    assertAuthorisedIdentity(identity);
    if (typeof id !== "string" || !REPO_FACT_ID.test(id)) throw notFound();
    const store = this.deps.repo;
    for (let attempt = 1; ; attempt++) {
      const meta = await store.loadMeta(repoId);
      const now = this.deps.clock.now().getTime();
      const [f] = await store.factsSelected(repoId, { ids: [id], subjects: [], predicates: [] }, 1);
      if (!f) throw notFound();
      const doc = repoDoc([...repoHistoryOf(meta.doc), endRepoFact(f, identity.session_id, now, "retracted", [])], repoSingleValuedOf(meta.doc));
      try {
        await store.upsertFacts(repoId, [], { session_id: identity.session_id }, now, { expectedRevision: meta.revision, end: [{ fact_id: id, subject_id: f.subject.id }], doc });
        return { fact_id: id, valid_to: new Date(now).toISOString() };
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
  }

  /** Every interval of one durable fact, oldest first, the current one (if live) last. Never held → 404. */
  async history(repoId: string, id: string): Promise<{ fact_id: string; versions: RepoFactHistoryEntry[] }> {
    if (typeof id !== "string" || !REPO_FACT_ID.test(id)) throw notFound();
    const meta = await this.deps.repo.loadMeta(repoId);
    const versions: RepoFactHistoryEntry[] = repoHistoryOf(meta.doc)
      .filter((v) => v.fact_id === id)
      .map((v) => ({ ...repoFactView(versionAsFact(v)), valid_to: new Date(v.valid_to).toISOString(), ended_by: v.ended_by, status: v.ended, replaced_by: v.replaced_by }));
    const [live] = await this.deps.repo.factsSelected(repoId, { ids: [id], subjects: [], predicates: [] }, 1);
    if (live) versions.push({ ...repoFactView(live), valid_to: null, ended_by: null, status: "current", replaced_by: [] });
    if (versions.length === 0) throw notFound();
    return { fact_id: id, versions };
  }

  async searchNodes(repoId: string, query: string, limit: number): Promise<RepoNode[]> {
    const tokens = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    return this.deps.repo.searchNodes(repoId, tokens, Math.min(Math.max(1, limit), 200));
  }

  /**
   * The subgraph around a node; with `asOf`, as the repository held it then: edges learned after it leave
   * (and the nodes only they reached), history intervals current at it that touch the subgraph come back
   * with their endpoints (a node reached only through history shows no origin).
   */
  async querySubgraph(repoId: string, nodeId: string, depth: number, limit: number, asOf?: number): Promise<Subgraph> {
    const lim = Math.min(Math.max(1, limit), 500);
    const g = await this.deps.repo.querySubgraph(repoId, nodeId, Math.min(Math.max(1, depth), 3), lim);
    if (asOf === undefined || g.nodes.length === 0) return g;
    const facts = await this.deps.repo.factsSelected(repoId, { ids: g.edges.map((e) => e.id), subjects: [], predicates: [] }, lim);
    const learned = new Map(facts.map((f) => [f.fact_id, f.valid_from]));
    const edges = g.edges.filter((e) => !learned.has(e.id) || repoCurrentAt({ valid_from: learned.get(e.id) }, asOf));
    const known = new Map(g.nodes.map((n) => [n.id, n]));
    const seen = new Set(edges.map((e) => e.id));
    const extra = new Map<string, RepoNode>();
    for (const v of repoHistoryOf((await this.deps.repo.loadMeta(repoId)).doc)) {
      if (edges.length >= lim || seen.has(v.fact_id) || !repoCurrentAt(v, asOf) || !(known.has(v.subject.id) || known.has(v.object.id))) continue;
      seen.add(v.fact_id);
      edges.push({ id: v.fact_id, label: "FACT", src: v.subject.id, predicate: v.predicate, dst: v.object.id, origin_session_id: v.session_id });
      for (const n of [v.subject, v.object]) if (!known.has(n.id)) extra.set(n.id, { id: n.id, label: "Node", name: n.name, type: n.type, origin_session_id: null });
    }
    const reached = new Set([nodeId, ...edges.flatMap((e) => [e.src, e.dst])]);
    return { nodes: [...g.nodes.filter((n) => reached.has(n.id)), ...extra.values()], edges };
  }

  /** Durable recall (repository-recall.ts). */
  recall(
    identity: Identity,
    repoId: string,
    input: { query: string; limit?: number | undefined; mode?: "fused" | "lexical" | "dense"; asOf?: number | undefined },
  ): Promise<{ results: RecallResult[] }> {
    return recallRepository(this.deps, identity, repoId, input);
  }

  /** `POST /memory/index`: embeds one bounded batch of durable nodes that lack an embedding. */
  async index(identity: Identity, repoId: string, batch = MAX_EMBED_BATCH): Promise<{ indexed: number; remaining: boolean }> {
    const e = await this.embedMissing(identity, repoId, batch, 1);
    if (e.vectors.length > 0) await this.deps.repo.setEmbeddings(repoId, e.model, e.vectors);
    return { indexed: e.vectors.length, remaining: e.remaining };
  }

  /**
   * Whether some durable node of the repository lacks a vector for the model that serves now (its
   * dense recall is partial until an embedding job adds them). Without an embedder: never.
   */
  async embeddingsMissing(repoId: string): Promise<boolean> {
    const { embedder } = this.deps;
    if (!embedder) return false;
    await embedder.status?.();
    return (await this.deps.repo.nodesMissingEmbedding(repoId, embedder.model, 1)).length > 0;
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
    // Through the same write as an upsert: a single-valued slot of the repository keeps one live fact.
    await this.write(scope.identity, scope.ns, triples, [], []);
    await this.index(scope.identity, scope.ns).catch((err: unknown) => this.deps.onWarning?.("embedding_failed", err instanceof AppError ? err.code : "internal"));
    return { promoted: triples.map((t) => t.fact_id) };
  }

  /** The live memory facts (not the code graph ingest writes), at most MAX_REPO_TRANSFER_FACTS (422 past it). */
  private async memoryFacts(repoId: string, stopAtFirst = false): Promise<RepoFact[]> {
    const out: RepoFact[] = [];
    for (let after = ""; ; ) {
      const page = await this.deps.repo.factsPage(repoId, after, SCAN_PAGE);
      for (const f of page) {
        if (f.source === INGEST_SOURCE) continue;
        out.push(f);
        if (stopAtFirst) return out;
        if (out.length > MAX_REPO_TRANSFER_FACTS) throw limitError("repo_transfer_facts", MAX_REPO_TRANSFER_FACTS);
      }
      if (page.length < SCAN_PAGE) return out;
      after = page[page.length - 1]!.fact_id;
    }
  }

  /**
   * The repository's durable memory as JSON Lines (repository-transfer.ts): memory facts with validity and
   * provenance, the nodes they name, the history, the single-valued table; no embeddings. Read again if a
   * write moved the revision while it was read, so the lines are one state of the repository.
   */
  async exportLines(repoId: string): Promise<{ lines: string; nodes: number; facts: number; history: number }> {
    for (let attempt = 1; ; attempt++) {
      const meta = await this.deps.repo.loadMeta(repoId);
      const facts = await this.memoryFacts(repoId);
      if ((await this.deps.repo.loadMeta(repoId)).revision !== meta.revision && attempt < REVISION_RETRIES) continue;
      const lines = exportRepoLines(repoId, facts, meta.doc, this.deps.clock.now().getTime());
      const nodes = lines.split("\n").filter((l) => l.startsWith('{"kind":"node"')).length;
      return { lines, nodes, facts: facts.length, history: repoHistoryOf(meta.doc).length };
    }
  }

  /**
   * Imports an export into this repository (the caller may write it), all or nothing: every line is parsed and
   * checked, names and sources are redacted again, node and fact IDs are derived for this repository, times are
   * clamped to now, and everything is one adapter write under the repository's limits (nodes, facts + history,
   * history bounds), checked against the revision read. The repository must hold no memory facts and no history
   * yet (409 `conflict`; its code graph may be there). The importing session is the origin of the imported facts
   * (so forget-session can erase them); history keeps the sessions the file names. Nodes are embedded again.
   */
  async importLines(identity: Identity, repoId: string, text: string): Promise<{ nodes: number; facts: number; history: number }> {
    assertAuthorisedIdentity(identity);
    const now = this.deps.clock.now().getTime();
    const { remap, triples, history, declared } = await importedRepoContent(repoId, text, now);
    const slots = new Set<string>();
    for (let attempt = 1; ; attempt++) {
      const meta = await this.deps.repo.loadMeta(repoId);
      if (repoHistoryOf(meta.doc).length > 0 || (await this.memoryFacts(repoId, true)).length > 0) {
        throw new AppError("conflict", { message: "Import fills a repository whose durable memory is empty; this one already holds memory facts." });
      }
      const single = new Set([...repoSingleValuedOf(meta.doc), ...declared]);
      slots.clear();
      for (const t of triples.values()) {
        if (!single.has(t.predicate)) continue;
        const slot = `${t.subject.id}\u0000${t.predicate}`;
        if (slots.has(slot)) throw bad("single_valued");
        slots.add(slot);
      }
      try {
        await this.deps.repo.upsertFacts(repoId, [...triples.values()], { session_id: identity.session_id }, now, { expectedRevision: meta.revision, end: [], doc: repoDoc(history, [...single]) });
        break;
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
    try {
      // Bounded like the embedding job (≤ 16 batches); what remains goes with POST /memory/index or the refresh job.
      const e = await this.embedMissing(identity, repoId, MAX_EMBED_BATCH, Math.min(16, Math.ceil(remap.size / MAX_EMBED_BATCH) + 1));
      if (e.vectors.length > 0) await this.deps.repo.setEmbeddings(repoId, e.model, e.vectors);
    } catch (err) {
      this.deps.onWarning?.("embedding_failed", err instanceof AppError ? err.code : "internal");
    }
    return { nodes: new Set([...remap.values()].map((n) => n.id)).size, facts: triples.size, history: history.length };
  }

  /**
   * Erasure for a repository admin: removes from the repository's durable memory everything one
   * session wrote (promoted or upserted) and the nodes only it used, with their embeddings.
   * Answers a receipt.
   */
  async forgetSession(repoId: string, sessionId: string): Promise<ErasureReceipt & { fact_ids: string[] }> {
    if (typeof sessionId !== "string" || sessionId.length < 1 || sessionId.length > 256) throw bad("session_id");
    const r = await this.deps.repo.forgetOrigin(repoId, sessionId);
    return {
      scope: "promoted",
      session_id: sessionId,
      stores: [{ store: `repository:${this.deps.repo.kind}`, entities: r.nodes, facts: r.edges, history: r.history, status: "done" }],
      done: true,
      // Not part of the answer: the removed facts, so the job results that cite them can be erased too.
      fact_ids: r.fact_ids,
    };
  }
}

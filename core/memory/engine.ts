/**
 * The session-memory engine (MEM-1..5): validates the identity, the scope,
 * the triples and retention, builds the next bounded snapshot, and hands it
 * to the adapter with the revision it read. Adapters enforce revision and
 * quotas again in their own transactions.
 *
 * Scope: tenant = identity.tenant_id, session = identity.session_id, ns = the
 * route's repository id. Expiry = the binding's deadline, passed in by the
 * caller; the adapter refuses a different one once the scope exists.
 *
 * Embeddings: after a commit, new entities are embedded under the caller's
 * identity and upserted into the vector index. A failure there is logged (by
 * code, never text) and leaves lexical recall working.
 */
import { AppError } from "../errors";
import { makeIdentity, isValidId, sameIdentity, type Identity } from "../execution/identity";
import {
  MAX_ENTITY_NAME_CHARS,
  MAX_MEMORY_READ_LIMIT,
  MAX_RECALL_LIMIT,
  MAX_SOURCE_CHARS,
  MAX_TRIPLES_PER_UPSERT,
} from "../limits";
import { redact } from "../redact";
import { checkHits, rankFacts, type FactView, type RecallResult } from "../recall/recall";
import type { Clock } from "../clock";
import type { Embedder } from "./embedder";
import { entityId, factId, normalizeName } from "./ids";
import { checkSnapshot, emptyContent, PREDICATE_PATTERN, TYPE_PATTERN } from "./snapshot";
import type { SessionMemoryStore } from "./store";
import type { ScopeKey, ScopeOwner, ScopeSnapshot, SessionEntity, SessionFact, SnapshotContent, TripleInput } from "./types";
import { scopeKeyOf } from "./types";
import type { SessionVectorIndex } from "./vector-index";

export interface MemoryScope {
  identity: Identity;
  /** The namespace: the repository id of the route. */
  ns: string;
  /** The binding's deadline. */
  expiresAt: Date | number;
}

export interface EngineDeps {
  store: SessionMemoryStore;
  clock: Clock;
  vectors?: SessionVectorIndex | undefined;
  embedder?: Embedder | undefined;
  /** Told about failed optional work (embedding) by error code only. */
  onWarning?: (event: string, code: string) => void;
}

export interface UpsertResult {
  facts: Array<{ fact_id: string; subject_id: string; predicate: string; object_id: string }>;
  revision: number;
}

export interface ReadResult {
  entities: Array<{ id: string; name: string; type: string; aliases: string[] }>;
  facts: Array<FactView & { source?: string }>;
  revision: number;
}

const REVISION_RETRIES = 3;

export function scopeOwner(scope: MemoryScope): ScopeOwner {
  const id = scope.identity;
  if (!id || !Object.isFrozen(id) || !sameIdentity(makeIdentity(id), id)) throw new AppError("invalid_identity");
  if (!isValidId(scope.ns)) throw new AppError("validation_failed", { details: { field: "ns" } });
  return { tenant_id: id.tenant_id, subject_id: id.subject_id, session_id: id.session_id, ns: scope.ns };
}

function expiryMs(scope: MemoryScope): number {
  const t = typeof scope.expiresAt === "number" ? scope.expiresAt : scope.expiresAt.getTime();
  if (!Number.isSafeInteger(t)) throw new AppError("validation_failed", { details: { field: "expires_at" } });
  return t;
}

function bad(field: string): AppError {
  return new AppError("validation_failed", { message: `The request is not valid: ${field}.`, details: { field } });
}

/** Redacts a name; a name that was (partly) a secret keeps its masked form, cut to the limit. */
async function cleanName(name: unknown, field: string): Promise<string> {
  if (typeof name !== "string") throw bad(field);
  const n = normalizeName(name);
  if (n.length < 1 || n.length > MAX_ENTITY_NAME_CHARS) throw bad(field);
  return (await redact(n)).text.slice(0, MAX_ENTITY_NAME_CHARS);
}

export function factViews(s: SnapshotContent): Array<FactView & { source?: string }> {
  const byId = new Map(s.entities.map((e) => [e.id, e]));
  const view = (e: SessionEntity) => ({ id: e.id, name: e.name, type: e.type, ...(e.doc.aliases?.length ? { aliases: e.doc.aliases } : {}) });
  const out: Array<FactView & { source?: string }> = [];
  for (const f of s.facts) {
    const a = byId.get(f.subject_id);
    const b = byId.get(f.object_id);
    if (!a || !b) continue;
    out.push({ fact_id: f.fact_id, subject: view(a), predicate: f.predicate, object: view(b), ...(f.doc.source !== undefined ? { source: f.doc.source } : {}) });
  }
  return out;
}

export class SessionMemoryEngine {
  constructor(private readonly deps: EngineDeps) {}

  get store(): SessionMemoryStore {
    return this.deps.store;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /** The authoritative snapshot, or an empty one at revision 0. */
  async snapshot(scope: MemoryScope): Promise<ScopeSnapshot> {
    const owner = scopeOwner(scope);
    const s = await this.deps.store.load(owner, this.now());
    return s ?? { key: scopeKeyOf(owner), subject_id: owner.subject_id, revision: 0, expires_at: expiryMs(scope), ...emptyContent() };
  }

  async read(scope: MemoryScope, opts: { q?: string | undefined; limit?: number | undefined } = {}): Promise<ReadResult> {
    const limit = Math.min(Math.max(1, opts.limit ?? 100), MAX_MEMORY_READ_LIMIT);
    const s = await this.snapshot(scope);
    const q = opts.q?.trim().toLowerCase();
    const match = (t: string) => !q || t.toLowerCase().includes(q);
    const entities = s.entities
      .filter((e) => match(e.name) || match(e.type) || (e.doc.aliases ?? []).some(match))
      .slice(0, limit)
      .map((e) => ({ id: e.id, name: e.name, type: e.type, aliases: e.doc.aliases ?? [] }));
    const facts = factViews(s)
      .filter((f) => match(f.subject.name) || match(f.object.name) || match(f.predicate) || match(f.subject.type) || match(f.object.type))
      .slice(0, limit);
    return { entities, facts, revision: s.revision };
  }

  /** Merges validated, redacted triples into the namespace (idempotent per triple). */
  async upsert(scope: MemoryScope, input: { triples: TripleInput[]; source?: string | undefined }): Promise<UpsertResult> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const expiresAt = expiryMs(scope);
    if (!Array.isArray(input.triples) || input.triples.length < 1 || input.triples.length > MAX_TRIPLES_PER_UPSERT) throw bad("triples");
    let source: string | undefined;
    if (input.source !== undefined) {
      if (typeof input.source !== "string" || input.source.length > MAX_SOURCE_CHARS) throw bad("source");
      source = (await redact(input.source)).text.slice(0, MAX_SOURCE_CHARS);
    }
    const clean: Array<{ s: SessionEntity; p: string; o: SessionEntity }> = [];
    for (const [i, t] of input.triples.entries()) {
      if (typeof t.predicate !== "string" || !PREDICATE_PATTERN.test(t.predicate)) throw bad(`triples.${i}.predicate`);
      const st = t.subject_type ?? "";
      const ot = t.object_type ?? "";
      if (typeof st !== "string" || !TYPE_PATTERN.test(st)) throw bad(`triples.${i}.subject_type`);
      if (typeof ot !== "string" || !TYPE_PATTERN.test(ot)) throw bad(`triples.${i}.object_type`);
      const sn = await cleanName(t.subject, `triples.${i}.subject`);
      const on = await cleanName(t.object, `triples.${i}.object`);
      clean.push({
        s: { id: entityId(key, st, sn), name: sn, type: st, doc: {} },
        p: t.predicate,
        o: { id: entityId(key, ot, on), name: on, type: ot, doc: {} },
      });
    }

    for (let attempt = 1; ; attempt++) {
      const current = await this.snapshot(scope);
      const entities = new Map(current.entities.map((e) => [e.id, e]));
      const facts = new Map(current.facts.map((f) => [f.fact_id, f]));
      const touched: SessionFact[] = [];
      const added: SessionEntity[] = [];
      for (const { s, p, o } of clean) {
        for (const e of [s, o]) {
          if (!entities.has(e.id)) {
            entities.set(e.id, e);
            added.push(e);
          }
        }
        const id = factId(key, s.id, p, o.id);
        const prev = facts.get(id);
        const fact: SessionFact = { fact_id: id, subject_id: s.id, predicate: p, object_id: o.id, doc: source !== undefined ? { source } : (prev?.doc ?? {}) };
        facts.set(id, fact);
        touched.push(fact);
      }
      const content: SnapshotContent = { doc: current.doc, entities: [...entities.values()], facts: [...facts.values()] };
      checkSnapshot(key, content);
      try {
        const { revision } = await this.deps.store.commit({ owner, expectedRevision: current.revision, expiresAt, content, now: this.now() });
        await this.embedEntities(scope, key, added, expiresAt);
        const seen = new Set<string>();
        return {
          facts: touched
            .filter((f) => !seen.has(f.fact_id) && seen.add(f.fact_id))
            .map((f) => ({ fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id })),
          revision,
        };
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
  }

  /** Clears the namespace and closes it for good; vectors of the namespace go too. */
  async clear(scope: MemoryScope): Promise<void> {
    const owner = scopeOwner(scope);
    await this.deps.store.clear(owner, expiryMs(scope), this.now());
    await this.deps.vectors?.deleteScope(scopeKeyOf(owner)).catch((err: unknown) => this.warn("vector_delete_failed", err));
  }

  /** Session recall: BM25 + dense + RRF, hits rechecked against a fresh snapshot (VEC-2). */
  async recall(
    scope: MemoryScope,
    input: { query: string; limit?: number | undefined; mode?: "fused" | "lexical" | "dense" },
  ): Promise<{ results: RecallResult[] }> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const limit = Math.min(Math.max(1, input.limit ?? 10), MAX_RECALL_LIMIT);
    const hits = input.mode === "lexical" ? [] : await this.searchVectors(scope, key, input.query, limit);
    // The fresh, authoritative snapshot: checked for revocation, closure and expiry by the adapter.
    const s = await this.snapshot(scope);
    const sims = checkHits(hits, key, this.now(), new Set(s.entities.map((e) => e.id)));
    return { results: rankFacts(factViews(s), input.query, sims, limit, input.mode ?? "fused", this.deps.embedder?.denseWeight) };
  }

  /** The facts with these IDs in the caller's namespace (unknown or foreign IDs: absent). */
  async factsById(scope: MemoryScope, ids: string[]): Promise<FactView[]> {
    const s = await this.snapshot(scope);
    const want = new Set(ids);
    return factViews(s).filter((f) => want.has(f.fact_id));
  }

  /** Embeds every entity of the namespace that has none yet in the index (bounded by the namespace size). */
  async reindex(scope: MemoryScope): Promise<number> {
    const owner = scopeOwner(scope);
    const s = await this.snapshot(scope);
    await this.embedEntities(scope, scopeKeyOf(owner), s.entities, expiryMs(scope), true);
    return s.entities.length;
  }

  private async searchVectors(scope: MemoryScope, key: ScopeKey, query: string, limit: number) {
    const { vectors, embedder } = this.deps;
    if (!vectors || !embedder) return [];
    try {
      const [q] = await embedder.embed(scope.identity, [query]);
      if (!q) return [];
      return await vectors.search(key, q, { model: embedder.model, limit: Math.min(1024, Math.max(64, limit * 8)), now: this.now() });
    } catch (err) {
      this.warn("vector_search_failed", err);
      return [];
    }
  }

  private async embedEntities(scope: MemoryScope, key: ScopeKey, entities: SessionEntity[], expiresAt: number, strict = false): Promise<void> {
    const { vectors, embedder } = this.deps;
    if (!vectors || !embedder || entities.length === 0) return;
    try {
      const texts = entities.map((e) => [e.name, ...(e.doc.aliases ?? []), e.type].join(" "));
      const vecs = await embedder.embed(scope.identity, texts);
      await vectors.upsert(entities.map((e, i) => ({ key, id: e.id, model: embedder.model, vector: vecs[i]!, expires_at: expiresAt })));
    } catch (err) {
      if (strict) throw err;
      this.warn("embedding_failed", err);
    }
  }

  private warn(event: string, err: unknown): void {
    this.deps.onWarning?.(event, err instanceof AppError ? err.code : "internal");
  }
}

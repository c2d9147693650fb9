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
import { MAX_MEMORY_READ_LIMIT, MAX_RECALL_LIMIT } from "../limits";
import { checkHits, rankFacts, type FactView, type RecallResult } from "../recall/recall";
import type { Clock } from "../clock";
import type { Embedder } from "./embedder";
import { endFact, factsAsOf, historyOf, planSupersession, singleValuedOf, withMeta } from "./history";
import { factId, SESSION_FACT_ID } from "./ids";
import { bad } from "./input";
import { cleanUpsert, importedContent, type UpsertInput } from "./session-input";
import { embedEntities, searchEntityVectors } from "./session-embeddings";
import { factHistory, factViews, lineageOf, type FactHistoryEntry, type ReadResult } from "./session-views";
import { checkSnapshot, emptyContent } from "./snapshot";
import { extractionTotals } from "./extract/plan";
import type { SessionMemoryStore } from "./store";
import type { ScopeKey, ScopeOwner, ScopeSnapshot, SessionEntity, SessionFact, SnapshotContent } from "./types";
import { scopeKeyOf } from "./types";
import { exportLines } from "./transfer";
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
  /** Facts this upsert ended (named in `supersedes`, or replaced under a single-valued predicate). */
  superseded: string[];
  revision: number;
}

/** What an erasure removed, per store. `pending` stores are retried by the cleanup pool. */
export interface ErasureReceipt {
  scope: "namespace" | "session" | "promoted";
  session_id: string;
  stores: Array<{ store: string; entities: number; facts: number; history: number; rows?: number; status: "done" | "pending" }>;
  done: boolean;
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

function notFound(): AppError {
  return new AppError("not_found", { message: "No such fact in this thread's memory." });
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

  /**
   * Live entities and facts, or with `as_of` (epoch ms, platform clock) what
   * the namespace believed then: facts current at that instant, and only the
   * entities they connect.
   */
  async read(scope: MemoryScope, opts: { q?: string | undefined; limit?: number | undefined; asOf?: number | undefined } = {}): Promise<ReadResult> {
    const limit = Math.min(Math.max(1, opts.limit ?? 100), MAX_MEMORY_READ_LIMIT);
    const s = await this.snapshot(scope);
    const live = opts.asOf === undefined ? s.facts : factsAsOf(s, opts.asOf);
    const q = opts.q?.trim().toLowerCase();
    const match = (t: string) => !q || t.toLowerCase().includes(q);
    const ends = opts.asOf === undefined ? null : new Set(live.flatMap((f) => [f.subject_id, f.object_id]));
    const entities = s.entities
      .filter((e) => ends === null || ends.has(e.id))
      .filter((e) => match(e.name) || match(e.type) || (e.doc.aliases ?? []).some(match))
      .slice(0, limit)
      .map((e) => ({ id: e.id, name: e.name, type: e.type, aliases: e.doc.aliases ?? [] }));
    const facts = factViews(s, live)
      .filter((f) => match(f.subject.name) || match(f.object.name) || match(f.predicate) || match(f.subject.type) || match(f.object.type))
      .slice(0, limit);
    return { entities, facts, revision: s.revision, extraction: extractionTotals(s.doc) };
  }

  /**
   * Merges validated, redacted triples into the namespace (idempotent per
   * triple). Facts named in `supersedes`, and live facts with the same
   * subject and a single-valued predicate but another object, stop being
   * current: they leave the live snapshot for the history, replaced by the
   * facts of this upsert. A re-upserted live fact keeps its `valid_from`.
   */
  async upsert(scope: MemoryScope, input: UpsertInput): Promise<UpsertResult> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const { source, supersedes, declared, observedAt, clean } = await cleanUpsert(key, input);

    return this.mutate(scope, (current, now) => {
      if (observedAt !== undefined && observedAt > now) throw bad("observed_at");
      const entities = new Map(current.entities.map((e) => [e.id, e]));
      const facts = new Map(current.facts.map((f) => [f.fact_id, f]));
      const history = [...historyOf(current)];
      const single = new Set([...singleValuedOf(current), ...declared]);
      // All or nothing, and the ID is not echoed: the same answer for a foreign, guessed or ended fact.
      if (!supersedes.every((id) => facts.has(id))) throw notFound();
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
        const fact: SessionFact = {
          fact_id: id,
          subject_id: s.id,
          predicate: p,
          object_id: o.id,
          doc: {
            ...(source !== undefined ? { source } : prev?.doc.source !== undefined ? { source: prev.doc.source } : {}),
            ...(prev ? (prev.doc.valid_from !== undefined ? { valid_from: prev.doc.valid_from } : {}) : { valid_from: now }),
            ...(observedAt !== undefined ? { observed_at: observedAt } : prev?.doc.observed_at !== undefined ? { observed_at: prev.doc.observed_at } : {}),
          },
        };
        facts.set(id, fact);
        touched.push(fact);
      }
      const ended = planSupersession(facts.values(), touched, supersedes, single);
      for (const [id, by] of ended) {
        const f = facts.get(id)!;
        facts.delete(id);
        history.push(endFact(f, owner.session_id, now, "superseded", [...by]));
      }
      const content: SnapshotContent = {
        doc: withMeta(current.doc, { history, single_valued: [...single] }),
        entities: [...entities.values()],
        facts: [...facts.values()],
      };
      const seen = new Set<string>();
      const result = {
        facts: touched
          .filter((f) => !seen.has(f.fact_id) && seen.add(f.fact_id))
          .map((f) => ({ fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id })),
        superseded: [...ended.keys()],
      };
      return { content, added, result };
    });
  }

  /**
   * One optimistic write of the namespace's next snapshot: `build` gets the
   * authoritative snapshot and the platform time and answers the next content,
   * the entities it adds (embedded after the commit) and its result. The
   * content is checked (checkSnapshot) and committed at the revision read; a
   * concurrent writer's commit makes it read and build again, up to
   * REVISION_RETRIES times. Every write of facts goes through here.
   */
  async mutate<T extends object>(
    scope: MemoryScope,
    build: (current: ScopeSnapshot, now: number) => { content: SnapshotContent; added: SessionEntity[]; result: T },
  ): Promise<T & { revision: number }> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const expiresAt = expiryMs(scope);
    for (let attempt = 1; ; attempt++) {
      const current = await this.snapshot(scope);
      const now = this.now();
      const { content, added, result } = build(current, now);
      checkSnapshot(key, content);
      try {
        const { revision } = await this.deps.store.commit({ owner, expectedRevision: current.revision, expiresAt, content, now });
        await this.embedEntities(scope, key, added, expiresAt);
        return { ...result, revision };
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
  }

  /** Retracts one live fact: it leaves the live snapshot and its history records when. Unknown or ended → 404. */
  async retract(scope: MemoryScope, id: string): Promise<{ fact_id: string; valid_to: string; revision: number }> {
    const owner = scopeOwner(scope);
    if (typeof id !== "string" || !SESSION_FACT_ID.test(id)) throw notFound();
    return this.mutate(scope, (current, now) => {
      const f = current.facts.find((x) => x.fact_id === id);
      if (!f) throw notFound();
      const history = [...historyOf(current), endFact(f, owner.session_id, now, "retracted", [])];
      const content: SnapshotContent = {
        doc: withMeta(current.doc, { history, single_valued: singleValuedOf(current) }),
        entities: current.entities,
        facts: current.facts.filter((x) => x.fact_id !== id),
      };
      return { content, added: [], result: { fact_id: id, valid_to: new Date(now).toISOString() } };
    });
  }

  /**
   * Every interval of one fact in this namespace, oldest first, the current
   * one (if live) last. A fact the namespace never held → 404.
   */
  async history(scope: MemoryScope, id: string): Promise<{ fact_id: string; versions: FactHistoryEntry[] }> {
    if (typeof id !== "string" || !SESSION_FACT_ID.test(id)) throw notFound();
    const owner = scopeOwner(scope);
    const s = await this.snapshot(scope);
    const versions = factHistory(s, id, owner.session_id);
    if (versions.length === 0) throw notFound();
    return { fact_id: id, versions };
  }

  /**
   * Clears the namespace and closes it for good; its vectors go too. Answers
   * an erasure receipt: what each store held and removed, and whether the
   * vector deletion is done (tried up to 3 times; `pending` otherwise — the
   * namespace is closed, so nothing can be added back, and the vectors
   * expire with the binding and go with the expiry cleanup).
   */
  async clear(scope: MemoryScope): Promise<ErasureReceipt> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    let held: SnapshotContent | null = null;
    try {
      held = await this.deps.store.load(owner, this.now());
    } catch (err) {
      // Already closed or expired: the clear below still runs (and refuses what it must).
      if (!(err instanceof AppError && (err.code === "namespace_closed" || err.code === "session_expired"))) throw err;
    }
    await this.deps.store.clear(owner, expiryMs(scope), this.now());
    const stores: ErasureReceipt["stores"] = [
      {
        store: `graph:${this.deps.store.kind}`,
        entities: held?.entities.length ?? 0,
        facts: held?.facts.length ?? 0,
        history: held ? historyOf(held).length : 0,
        status: "done",
      },
    ];
    const vectors = this.deps.vectors;
    if (vectors) {
      let status: "done" | "pending" = "pending";
      for (let attempt = 1; attempt <= 3 && status === "pending"; attempt++) {
        try {
          await vectors.deleteScope(key);
          status = "done";
        } catch (err) {
          this.warn("vector_delete_failed", err);
        }
      }
      stores.push({ store: `vectors:${vectors.kind}`, entities: held?.entities.length ?? 0, facts: 0, history: 0, status });
    }
    return { scope: "namespace", session_id: owner.session_id, stores, done: stores.every((x) => x.status === "done") };
  }

  /** The namespace as JSON Lines (see transfer.ts); vectors are left out. */
  async exportLines(scope: MemoryScope): Promise<{ lines: string; entities: number; facts: number; history: number }> {
    const s = await this.snapshot(scope);
    return { lines: exportLines(s, this.now()), entities: s.entities.length, facts: s.facts.length, history: historyOf(s).length };
  }

  /**
   * Imports an export into this (empty) namespace, all or nothing: every line
   * is parsed and checked, names and sources are redacted, IDs are derived
   * for this scope, and the result is one commit under every limit an upsert
   * meets. A namespace that already holds facts or history refuses (409
   * `conflict`); a cleared namespace or revoked session refuses as for any
   * write. Entities are embedded again afterwards.
   */
  async importLines(scope: MemoryScope, text: string): Promise<{ entities: number; facts: number; history: number; revision: number }> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const expiresAt = expiryMs(scope);
    const now = this.now();
    const { entities, facts, history, single } = await importedContent(key, text, now);
    for (let attempt = 1; ; attempt++) {
      const current = await this.snapshot(scope);
      if (current.facts.length > 0 || historyOf(current).length > 0) {
        throw new AppError("conflict", { message: "Import fills an empty namespace; this one already holds facts." });
      }
      const merged = new Map(current.entities.map((e) => [e.id, e]));
      for (const e of entities.values()) if (!merged.has(e.id)) merged.set(e.id, e);
      const content: SnapshotContent = {
        doc: withMeta(current.doc, { history, single_valued: [...new Set([...singleValuedOf(current), ...single])] }),
        entities: [...merged.values()],
        facts: [...facts.values()],
      };
      checkSnapshot(key, content);
      try {
        const { revision } = await this.deps.store.commit({ owner, expectedRevision: current.revision, expiresAt, content, now: this.now() });
        await this.embedEntities(scope, key, [...entities.values()], expiresAt);
        return { entities: entities.size, facts: facts.size, history: history.length, revision };
      } catch (err) {
        if (!(err instanceof AppError && err.code === "revision_conflict") || attempt >= REVISION_RETRIES) throw err;
      }
    }
  }

  /** Session recall: BM25 + dense + RRF, hits rechecked against a fresh snapshot (VEC-2). */
  async recall(
    scope: MemoryScope,
    input: { query: string; limit?: number | undefined; mode?: "fused" | "lexical" | "dense"; asOf?: number | undefined },
  ): Promise<{ results: RecallResult[] }> {
    const owner = scopeOwner(scope);
    const key = scopeKeyOf(owner);
    const limit = Math.min(Math.max(1, input.limit ?? 10), MAX_RECALL_LIMIT);
    const hits = input.mode === "lexical" ? [] : await this.searchVectors(scope, key, input.query, limit);
    // The fresh, authoritative snapshot: checked for revocation, closure and expiry by the adapter.
    const s = await this.snapshot(scope);
    const sims = checkHits(hits, key, this.now(), new Set(s.entities.map((e) => e.id)));
    // Live facts by default; with as_of, what the namespace believed then (entities never leave before a clear).
    const facts = input.asOf === undefined ? s.facts : factsAsOf(s, input.asOf);
    const views = factViews(s, facts).map((f) => ({ fact_id: f.fact_id, subject: f.subject, predicate: f.predicate, object: f.object, ...(f.source !== undefined ? { source: f.source } : {}) }));
    return { results: rankFacts(views, input.query, sims, limit, input.mode ?? "fused", this.deps.embedder?.fusion?.conversation) };
  }

  /** The facts with these IDs in the caller's namespace (unknown or foreign IDs: absent). */
  async factsById(scope: MemoryScope, ids: string[]): Promise<FactView[]> {
    const s = await this.snapshot(scope);
    const want = new Set(ids);
    return factViews(s).filter((f) => want.has(f.fact_id));
  }

  /**
   * Promotion lineage, one bounded text per live fact: the session fact's ID, since when it
   * was current, and the facts it replaced (with their intervals). Unknown IDs are absent.
   */
  async lineage(scope: MemoryScope, ids: string[]): Promise<Map<string, string>> {
    const s = await this.snapshot(scope);
    return lineageOf(s, ids);
  }

  /** Embeds every entity of the namespace that has none yet in the index (bounded by the namespace size). */
  async reindex(scope: MemoryScope): Promise<number> {
    const owner = scopeOwner(scope);
    const s = await this.snapshot(scope);
    await this.embedEntities(scope, scopeKeyOf(owner), s.entities, expiryMs(scope), true);
    return s.entities.length;
  }

  private searchVectors(scope: MemoryScope, key: ScopeKey, query: string, limit: number) {
    return searchEntityVectors(this.deps, scope.identity, key, query, limit, () => this.now(), (event, err) => this.warn(event, err));
  }

  private embedEntities(scope: MemoryScope, key: ScopeKey, entities: SessionEntity[], expiresAt: number, strict = false): Promise<void> {
    return embedEntities(this.deps, scope.identity, key, entities, expiresAt, strict ? undefined : (event, err) => this.warn(event, err));
  }

  private warn(event: string, err: unknown): void {
    this.deps.onWarning?.(event, err instanceof AppError ? err.code : "internal");
  }
}

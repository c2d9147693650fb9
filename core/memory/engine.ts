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
  MAX_SINGLE_VALUED_PREDICATES,
  MAX_SOURCE_CHARS,
  MAX_SUPERSEDES,
  MAX_TRIPLES_PER_UPSERT,
} from "../limits";
import { redact } from "../redact";
import { checkHits, rankFacts, type FactView, type RecallResult } from "../recall/recall";
import type { Clock } from "../clock";
import type { Embedder } from "./embedder";
import { endFact, factsAsOf, historyOf, planSupersession, singleValuedOf, withMeta } from "./history";
import { entityId, factId, normalizeName, SESSION_FACT_ID } from "./ids";
import { checkSnapshot, emptyContent, PREDICATE_PATTERN, TYPE_PATTERN } from "./snapshot";
import { extractionTotals } from "./extract/plan";
import type { SessionMemoryStore } from "./store";
import type { FactVersion, ScopeKey, ScopeOwner, ScopeSnapshot, SessionEntity, SessionFact, SnapshotContent, TripleInput } from "./types";
import { scopeKeyOf } from "./types";
import { exportLines, parseImport } from "./transfer";
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

export interface ReadResult {
  entities: Array<{ id: string; name: string; type: string; aliases: string[] }>;
  facts: LiveFactView[];
  revision: number;
  /** What offload extraction did in this namespace (running counts). */
  extraction: ReturnType<typeof extractionTotals>;
}

/** A fact as reads show it: the view, its source, and when it became current (ISO; null before validity existed). */
export type LiveFactView = FactView & { source?: string; valid_from: string | null; observed_at?: string };

/** One interval of a fact's life, as the history read shows it. */
export interface FactHistoryEntry {
  fact_id: string;
  subject: FactView["subject"];
  predicate: string;
  object: FactView["object"];
  source?: string;
  valid_from: string | null;
  /** null while the fact is current. */
  valid_to: string | null;
  observed_at?: string;
  session_id: string;
  status: "current" | "superseded" | "retracted";
  replaced_by: string[];
}

/** What an erasure removed, per store. `pending` stores are retried by the cleanup pool. */
export interface ErasureReceipt {
  scope: "namespace" | "session" | "promoted";
  session_id: string;
  stores: Array<{ store: string; entities: number; facts: number; history: number; rows?: number; status: "done" | "pending" }>;
  done: boolean;
}

export interface UpsertInput {
  triples: TripleInput[];
  source?: string | undefined;
  /** Live facts this upsert replaces (all or nothing: an unknown ID refuses the call). */
  supersedes?: string[] | undefined;
  /** Predicates to declare single-valued in this namespace (kept for good). */
  single_valued?: string[] | undefined;
  /** Epoch ms, caller's clock: when the runtime observed these facts. */
  observed_at?: number | undefined;
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

const iso = (ms: number | undefined): string | null => (ms === undefined || ms === 0 ? null : new Date(ms).toISOString());

function entityView(e: SessionEntity): FactView["subject"] {
  return { id: e.id, name: e.name, type: e.type, ...(e.doc.aliases?.length ? { aliases: e.doc.aliases } : {}) };
}

/** Views of `facts` (default: the live facts of `s`), hydrated from the snapshot's entities. */
export function factViews(s: SnapshotContent, facts: SessionFact[] = s.facts): LiveFactView[] {
  const byId = new Map(s.entities.map((e) => [e.id, e]));
  const out: LiveFactView[] = [];
  for (const f of facts) {
    const a = byId.get(f.subject_id);
    const b = byId.get(f.object_id);
    if (!a || !b) continue;
    out.push({
      fact_id: f.fact_id,
      subject: entityView(a),
      predicate: f.predicate,
      object: entityView(b),
      ...(f.doc.source !== undefined ? { source: f.doc.source } : {}),
      valid_from: iso(f.doc.valid_from),
      ...(f.doc.observed_at !== undefined ? { observed_at: new Date(f.doc.observed_at).toISOString() } : {}),
    });
  }
  return out;
}

/** Epoch ms of an optional ISO `as_of` / `observed_at`; undefined when absent. */
export function instant(v: string | number | Date | undefined, field: string): number | undefined {
  if (v === undefined) return undefined;
  const t = v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(v);
  if (!Number.isSafeInteger(t)) throw bad(field);
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
    if (!Array.isArray(input.triples) || input.triples.length < 1 || input.triples.length > MAX_TRIPLES_PER_UPSERT) throw bad("triples");
    let source: string | undefined;
    if (input.source !== undefined) {
      if (typeof input.source !== "string" || input.source.length > MAX_SOURCE_CHARS) throw bad("source");
      source = (await redact(input.source)).text.slice(0, MAX_SOURCE_CHARS);
    }
    const supersedes = input.supersedes ?? [];
    if (!Array.isArray(supersedes) || supersedes.length > MAX_SUPERSEDES || !supersedes.every((id) => typeof id === "string" && SESSION_FACT_ID.test(id))) {
      throw bad("supersedes");
    }
    const declared = input.single_valued ?? [];
    if (!Array.isArray(declared) || declared.length > MAX_SINGLE_VALUED_PREDICATES || !declared.every((p) => typeof p === "string" && PREDICATE_PATTERN.test(p))) {
      throw bad("single_valued");
    }
    const observedAt = instant(input.observed_at, "observed_at");
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
    const byId = new Map(s.entities.map((e) => [e.id, e]));
    const versions: FactHistoryEntry[] = [];
    const push = (v: Omit<FactVersion, "ended" | "valid_to"> & { status: FactHistoryEntry["status"]; valid_to: number | null }) => {
      const a = byId.get(v.subject_id);
      const b = byId.get(v.object_id);
      if (!a || !b) return;
      versions.push({
        fact_id: v.fact_id,
        subject: entityView(a),
        predicate: v.predicate,
        object: entityView(b),
        ...(v.source !== undefined ? { source: v.source } : {}),
        valid_from: iso(v.valid_from),
        valid_to: v.valid_to === null ? null : new Date(v.valid_to).toISOString(),
        ...(v.observed_at !== undefined ? { observed_at: new Date(v.observed_at).toISOString() } : {}),
        session_id: v.session_id,
        status: v.status,
        replaced_by: v.replaced_by,
      });
    };
    for (const v of historyOf(s)) if (v.fact_id === id) push({ ...v, status: v.ended });
    const live = s.facts.find((f) => f.fact_id === id);
    if (live) {
      push({
        fact_id: live.fact_id,
        subject_id: live.subject_id,
        predicate: live.predicate,
        object_id: live.object_id,
        ...(live.doc.source !== undefined ? { source: live.doc.source } : {}),
        valid_from: live.doc.valid_from ?? 0,
        valid_to: null,
        ...(live.doc.observed_at !== undefined ? { observed_at: live.doc.observed_at } : {}),
        session_id: owner.session_id,
        status: "current",
        replaced_by: [],
      });
    }
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
    const p = parseImport(text);
    const now = this.now();
    const at = (v: string | null | undefined): number | undefined => (v === null || v === undefined ? undefined : Math.min(Date.parse(v), now));
    const entities = new Map<string, SessionEntity>();
    const remap = new Map<string, string>();
    for (const [i, e] of p.nodes.entries()) {
      const n = await cleanName(e.name, `lines.entity.${i}.name`);
      const aliases = [];
      for (const a of e.aliases ?? []) aliases.push(await cleanName(a, `lines.entity.${i}.aliases`));
      const ent: SessionEntity = { id: entityId(key, e.type, n), name: n, type: e.type, doc: aliases.length ? { aliases } : {} };
      if (!entities.has(ent.id)) entities.set(ent.id, ent);
      remap.set(e.id, ent.id);
    }
    const cleanSource = async (v: string | undefined) => (v === undefined ? undefined : (await redact(v)).text.slice(0, MAX_SOURCE_CHARS));
    const factIdOf = new Map<string, string>();
    const facts = new Map<string, SessionFact>();
    for (const f of p.facts) {
      const sid = remap.get(f.subject_id)!;
      const oid = remap.get(f.object_id)!;
      const fid = factId(key, sid, f.predicate, oid);
      factIdOf.set(f.fact_id, fid);
      if (facts.has(fid)) continue;
      const src = await cleanSource(f.source);
      const vf = at(f.valid_from);
      const ob = at(f.observed_at);
      facts.set(fid, {
        fact_id: fid,
        subject_id: sid,
        predicate: f.predicate,
        object_id: oid,
        doc: { ...(src !== undefined ? { source: src } : {}), ...(vf !== undefined ? { valid_from: vf } : {}), ...(ob !== undefined ? { observed_at: ob } : {}) },
      });
    }
    for (const v of p.history) factIdOf.set(v.fact_id, factId(key, remap.get(v.subject_id)!, v.predicate, remap.get(v.object_id)!));
    const history: FactVersion[] = [];
    for (const v of p.history) {
      const src = await cleanSource(v.source);
      const to = at(v.valid_to)!;
      const from = Math.min(at(v.valid_from) ?? 0, to);
      const ob = at(v.observed_at);
      history.push({
        fact_id: factIdOf.get(v.fact_id)!,
        subject_id: remap.get(v.subject_id)!,
        predicate: v.predicate,
        object_id: remap.get(v.object_id)!,
        ...(src !== undefined ? { source: src } : {}),
        valid_from: from,
        valid_to: to,
        ...(ob !== undefined ? { observed_at: ob } : {}),
        session_id: v.session_id,
        ended: v.ended,
        replaced_by: v.replaced_by.flatMap((r) => (factIdOf.has(r) ? [factIdOf.get(r)!] : [])),
      });
    }
    history.sort((a, b) => a.valid_to - b.valid_to);
    const single = new Set(p.header.single_valued);
    const slots = new Set<string>();
    for (const f of facts.values()) {
      if (!single.has(f.predicate)) continue;
      const slot = `${f.subject_id}\u0000${f.predicate}`;
      if (slots.has(slot)) throw bad("single_valued");
      slots.add(slot);
    }
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
    const byId = new Map(s.entities.map((e) => [e.id, e.name]));
    const out = new Map<string, string>();
    const hist = historyOf(s);
    for (const f of s.facts) {
      if (!ids.includes(f.fact_id)) continue;
      const parts = [`promoted from session fact ${f.fact_id} of session ${s.key.session_id}, current since ${iso(f.doc.valid_from) ?? "before validity was recorded"}`];
      for (const v of hist) {
        if (v.fact_id !== f.fact_id && !v.replaced_by.includes(f.fact_id)) continue;
        const what = `${byId.get(v.subject_id) ?? "?"} ${v.predicate} ${byId.get(v.object_id) ?? "?"}`;
        parts.push(`${v.fact_id === f.fact_id ? "earlier interval" : "replaced"} ${v.fact_id} (${what}) ${iso(v.valid_from) ?? "?"}..${new Date(v.valid_to).toISOString()} ${v.ended}`);
      }
      out.set(f.fact_id, parts.join("; ").slice(0, MAX_SOURCE_CHARS));
    }
    return out;
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
      // The model that serves (a fallback decides on its first use), then the query's one embedding;
      // an index that can reads the scope's rows meanwhile.
      await embedder.status?.();
      const pending = embedder.embed(scope.identity, [query]).then(([q]) => q ?? []);
      const opts = { model: embedder.model, limit: Math.min(1024, Math.max(64, limit * 8)), now: this.now() };
      if (vectors.searchPending) return await vectors.searchPending(key, pending, opts);
      const q = await pending;
      return q.length === 0 ? [] : await vectors.search(key, q, opts);
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

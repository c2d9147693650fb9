/**
 * The VER-1 contract every SessionMemoryStore adapter (with its vector index)
 * must pass: in memory, PostgreSQL (PGlite and server), Neo4j, HugeGraph.
 *
 *   sessionMemoryContract(() => ({ store, vectors }))
 *
 * declares the suite inside the caller's describe(). The harness getter is
 * called lazily (inside tests), so it can come from a beforeAll. Tests isolate
 * by fresh tenant/session/namespace IDs; nothing is shared between them.
 */
import { expect, it } from "vitest";
import { AppError } from "../../core/errors";
import { ManualClock } from "../../core/clock";
import {
  MAX_ENTITIES_PER_NAMESPACE,
  MAX_FACTS_PER_NAMESPACE,
  MAX_LIVE_FACTS_PER_SESSION,
  MAX_LIVE_FACTS_PER_TENANT,
  MAX_NAMESPACES_PER_SESSION,
  MAX_SCOPE_ROOTS_PER_TENANT,
  MAX_SNAPSHOT_BYTES,
} from "../../core/limits";
import { modelEmbedder } from "../support/model-embedder";
import { SessionMemoryEngine } from "../../core/memory/engine";
import { snapshotBytes } from "../../core/memory/snapshot";
import type { SessionMemoryStore } from "../../core/memory/store";
import type { CommitInput, ScopeKey, ScopeOwner, SnapshotContent } from "../../core/memory/types";
import type { SessionVectorIndex, VectorHit } from "../../core/memory/vector-index";
import { sessionMemoryValidityContract, type Residue } from "./session-memory-validity.contract";
import { content, identityOf, keyOf, manyEntities, manyTriples, owner, rid } from "./memory-fixtures";

export interface SessionMemoryHarness {
  store: SessionMemoryStore;
  vectors: SessionVectorIndex;
  /** Reads the backend directly and counts what is left of one session (see session-memory-validity.contract.ts). */
  residue?: (tenantId: string, sessionId: string) => Promise<Residue>;
}

const DAY = 24 * 3600 * 1000;

async function refusal(p: Promise<unknown>): Promise<{ code: string; limit?: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, ...(err.details?.limit !== undefined ? { limit: err.details.limit } : {}) };
    throw err;
  }
  throw new Error("expected a refusal, but the call succeeded");
}

/**
 * `slow: false` leaves out the two quota tests that fill a tenant (thousands of writes);
 * `slowBudgetMs` bounds each of them on a store whose writes are slow (a graph server).
 */
export function sessionMemoryContract(h: () => SessionMemoryHarness, opts: { slow?: boolean; slowBudgetMs?: number } = {}): void {
  sessionMemoryValidityContract(h);
  const now = Date.UTC(2026, 11, 2, 12);
  const exp = now + 7 * DAY;
  const store = () => h().store;
  const commit = (o: ScopeOwner, c: SnapshotContent, rev: number, extra: Partial<CommitInput> = {}) =>
    store().commit({ owner: o, expectedRevision: rev, expiresAt: exp, content: c, now, ...extra });

  it("round-trips a snapshot, bumps the revision, and returns null for a namespace never written", async () => {
    const o = owner();
    expect(await store().load(o, now)).toBeNull();
    const c1 = content(o, [["AuthService", "depends_on", "TokenStore"]]);
    expect(await commit(o, c1, 0)).toEqual({ revision: 1 });
    const c2 = content(o, [["AuthService", "depends_on", "TokenStore"], ["TokenStore", "uses", "Redis"]], { note: "x" });
    expect(await commit(o, c2, 1)).toEqual({ revision: 2 });
    const s = await store().load(o, now);
    expect(s?.revision).toBe(2);
    expect(s?.expires_at).toBe(exp);
    expect(s?.doc).toEqual({ note: "x" });
    expect(s?.facts.map((f) => f.fact_id).sort()).toEqual(c2.facts.map((f) => f.fact_id).sort());
    expect(s?.entities.map((e) => e.name).sort()).toEqual(["AuthService", "Redis", "TokenStore"]);
    // A later snapshot with fewer facts replaces, it does not merge.
    await commit(o, c1, 2);
    expect((await store().load(o, now))?.facts).toHaveLength(1);
  });

  it("conflicting identity: another subject cannot read, write or clear a session it does not own", async () => {
    const o = owner();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    const intruder = { ...o, subject_id: rid("usr") };
    expect((await refusal(store().load(intruder, now))).code).toBe("session_forbidden");
    expect((await refusal(commit(intruder, content(o, [["X", "calls", "Y"]]), 1))).code).toBe("session_forbidden");
    // Even in a namespace the owner never used.
    const otherNs = { ...intruder, ns: rid("repo") };
    expect((await refusal(commit(otherNs, content(otherNs, [["X", "calls", "Y"]]), 0))).code).toBe("session_forbidden");
    expect((await refusal(store().clear(intruder, exp, now))).code).toBe("session_forbidden");
    expect((await store().load(o, now))?.facts).toHaveLength(1);
  });

  it("cross-tenant, cross-session and cross-namespace reads see nothing", async () => {
    const o = owner();
    await commit(o, content(o, [["Secret", "lives_in", "Vault"]]), 0);
    expect(await store().load({ ...o, tenant_id: rid("org") }, now)).toBeNull();
    expect(await store().load({ ...o, session_id: rid("ses") }, now)).toBeNull();
    expect(await store().load({ ...o, ns: rid("repo") }, now)).toBeNull();
  });

  it("guessed IDs: another scope's entity or fact IDs, and dangling endpoints, are refused", async () => {
    const a = owner();
    const ca = content(a, [["A", "calls", "B"]]);
    await commit(a, ca, 0);
    const b = owner({ tenant_id: a.tenant_id, subject_id: a.subject_id });
    // A's compound IDs are not valid in B's scope.
    expect(await refusal(commit(b, ca, 0))).toEqual({ code: "validation_failed" });
    // A fact whose endpoint is not in the snapshot (e.g. points into another scope).
    const cb = content(b, [["A", "calls", "B"]]);
    const dangling = { ...cb, entities: cb.entities.slice(0, 1) };
    expect(await refusal(commit(b, dangling, 0))).toEqual({ code: "validation_failed" });
    const badPredicate = content(b, [["A", "Calls Into", "B"]]);
    expect(await refusal(commit(b, badPredicate, 0))).toEqual({ code: "validation_failed" });
    expect(await store().load(b, now)).toBeNull();
  });

  it("duplicate names: one entity per (type, name), case- and space-insensitively; duplicate IDs refused", async () => {
    const o = owner();
    const c = content(o, [["A", "calls", "B"]]);
    expect(await refusal(commit(o, { ...c, entities: [...c.entities, c.entities[0]!] }, 0))).toEqual({ code: "validation_failed" });
    const engine = new SessionMemoryEngine({ store: store(), clock: new ManualClock(now) });
    const scope = { identity: identityOf(o), ns: o.ns, expiresAt: exp };
    await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "calls", object: "TokenStore" }] });
    const r = await engine.upsert(scope, { triples: [{ subject: " authservice ", predicate: "calls", object: "TOKENSTORE" }] });
    const read = await engine.read(scope);
    expect(read.entities).toHaveLength(2);
    expect(read.facts).toHaveLength(1);
    expect(r.facts[0]!.fact_id).toBe(read.facts[0]!.fact_id);
  });

  it("revoked: every namespace of the session refuses reads and writes, including new ones", async () => {
    const o = owner();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    await store().revokeSession(o.tenant_id, o.session_id, now);
    await store().revokeSession(o.tenant_id, o.session_id, now); // idempotent
    expect((await refusal(store().load(o, now))).code).toBe("session_revoked");
    expect((await refusal(commit(o, content(o, [["C", "calls", "D"]]), 1))).code).toBe("session_revoked");
    const fresh = { ...o, ns: rid("repo") };
    expect((await refusal(commit(fresh, content(fresh, [["C", "calls", "D"]]), 0))).code).toBe("session_revoked");
    expect((await refusal(store().clear(fresh, exp, now))).code).toBe("session_revoked");
    // The same session ID in another tenant is another session.
    const other = { ...o, tenant_id: rid("org") };
    expect(await commit(other, content(other, [["A", "calls", "B"]]), 0)).toEqual({ revision: 1 });
  });

  it("expired: writes past the deadline are refused; expired memory is removed on access and stays gone", async () => {
    const o = owner();
    expect((await refusal(commit(o, content(o, [["A", "calls", "B"]]), 0, { expiresAt: now }))).code).toBe("session_expired");
    expect(await store().load(o, now)).toBeNull();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    expect((await refusal(store().load(o, exp))).code).toBe("session_expired");
    expect((await refusal(commit(o, content(o, [["A", "calls", "B"]]), 1, { now: exp }))).code).toBe("session_expired");
    // Nothing is left to purge: access removed it.
    const after = await store().purgeSession(o.tenant_id, o.session_id, 100);
    expect(after).toEqual({ removed: 0, done: true });
  });

  it("direct adapter revival: a cleared namespace or revoked session cannot be written back, at any revision", async () => {
    const o = owner();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    await store().clear(o, exp, now);
    expect((await refusal(store().load(o, now))).code).toBe("namespace_closed");
    for (const rev of [0, 1, 2, 3]) {
      expect((await refusal(commit(o, content(o, [["A", "calls", "B"]]), rev))).code).toBe("namespace_closed");
    }
    // Clearing a namespace never written closes it too.
    const never = { ...o, ns: rid("repo") };
    await store().clear(never, exp, now);
    expect((await refusal(commit(never, content(never, [["A", "calls", "B"]]), 0))).code).toBe("namespace_closed");
    // Other namespaces of the session are unaffected.
    const sibling = { ...o, ns: rid("repo") };
    expect(await commit(sibling, content(sibling, [["A", "calls", "B"]]), 0)).toEqual({ revision: 1 });
    await store().revokeSession(o.tenant_id, o.session_id, now);
    expect((await refusal(commit(sibling, content(sibling, [["A", "calls", "B"]]), 1))).code).toBe("session_revoked");
  });

  it("immutable expiry: a commit with another deadline is refused and the stored one stays", async () => {
    const o = owner();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    expect((await refusal(commit(o, content(o, [["A", "calls", "C"]]), 1, { expiresAt: exp + DAY }))).code).toBe("conflict");
    expect((await refusal(commit(o, content(o, [["A", "calls", "C"]]), 1, { expiresAt: exp - DAY }))).code).toBe("conflict");
    const s = await store().load(o, now);
    expect([s?.expires_at, s?.revision, s?.facts.length]).toEqual([exp, 1, 1]);
  });

  it("stale revision refused; two racing writers at the same revision: exactly one wins", async () => {
    const o = owner();
    await commit(o, content(o, [["A", "calls", "B"]]), 0);
    expect((await refusal(commit(o, content(o, [["A", "calls", "C"]]), 0))).code).toBe("revision_conflict");
    for (let round = 0; round < 3; round++) {
      const rev = (await store().load(o, now))!.revision;
      const results = await Promise.allSettled([
        commit(o, content(o, [["W1", "calls", `X${round}`]]), rev),
        commit(o, content(o, [["W2", "calls", `Y${round}`]]), rev),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0]!.reason as AppError).code).toBe("revision_conflict");
      const s = await store().load(o, now);
      expect(s?.revision).toBe(rev + 1);
      expect(s?.facts).toHaveLength(1);
    }
  });

  it(`facts_per_namespace: ${MAX_FACTS_PER_NAMESPACE} fit, one more is refused naming the limit, nothing half-written`, async () => {
    const o = owner();
    const full = content(o, manyTriples(MAX_FACTS_PER_NAMESPACE));
    expect(full.facts).toHaveLength(MAX_FACTS_PER_NAMESPACE);
    expect(await commit(o, full, 0)).toEqual({ revision: 1 });
    const over = content(o, manyTriples(MAX_FACTS_PER_NAMESPACE + 1));
    expect(await refusal(commit(o, over, 1))).toEqual({ code: "limit_exceeded", limit: "facts_per_namespace" });
    const s = await store().load(o, now);
    expect([s?.revision, s?.facts.length]).toEqual([1, MAX_FACTS_PER_NAMESPACE]);
  });

  it(`entities_per_namespace: ${MAX_ENTITIES_PER_NAMESPACE} fit, one more is refused`, async () => {
    const o = owner();
    expect(await commit(o, manyEntities(o, MAX_ENTITIES_PER_NAMESPACE), 0)).toEqual({ revision: 1 });
    expect(await refusal(commit(o, manyEntities(o, MAX_ENTITIES_PER_NAMESPACE + 1), 1))).toEqual({ code: "limit_exceeded", limit: "entities_per_namespace" });
    expect((await store().load(o, now))?.entities).toHaveLength(MAX_ENTITIES_PER_NAMESPACE);
  });

  it(`snapshot_bytes: exactly ${MAX_SNAPSHOT_BYTES} bytes fit, one byte more is refused`, async () => {
    const o = owner();
    const base = content(o, [["A", "calls", "B"]], { pad: "" });
    const pad = MAX_SNAPSHOT_BYTES - snapshotBytes(base);
    const exact = { ...base, doc: { pad: "x".repeat(pad) } };
    expect(snapshotBytes(exact)).toBe(MAX_SNAPSHOT_BYTES);
    expect(await commit(o, exact, 0)).toEqual({ revision: 1 });
    const over = { ...base, doc: { pad: "x".repeat(pad + 1) } };
    expect(await refusal(commit(o, over, 1))).toEqual({ code: "limit_exceeded", limit: "snapshot_bytes" });
    expect((await store().load(o, now))?.doc).toEqual(exact.doc);
  });

  it(`namespaces_per_session: ${MAX_NAMESPACES_PER_SESSION} retained roots, cleared and expired ones included`, async () => {
    const o = owner();
    // One namespace expires early (its data is removed on access), four are cleared: all still count.
    const early = now + 1000;
    for (let i = 0; i < MAX_NAMESPACES_PER_SESSION; i++) {
      const n = { ...o, ns: `ns-${i}` };
      if (i % 4 === 0) await store().clear(n, exp, now);
      else await commit(n, content(n, [["A", "calls", "B"]]), 0, i === 3 ? { expiresAt: early } : {});
    }
    const later = early + 1;
    expect((await refusal(store().load({ ...o, ns: "ns-3" }, later))).code).toBe("session_expired");
    await store().clear({ ...o, ns: "ns-1" }, exp, later);
    const late = { ...o, ns: `ns-${MAX_NAMESPACES_PER_SESSION}` };
    expect(await refusal(commit(late, content(late, [["A", "calls", "B"]]), 0, { now: later }))).toEqual({ code: "limit_exceeded", limit: "namespaces_per_session" });
    expect(await refusal(store().clear(late, exp, later))).toEqual({ code: "limit_exceeded", limit: "namespaces_per_session" });
    expect(await store().load(late, later)).toBeNull();
    // Existing namespaces can still be written.
    const n2 = { ...o, ns: "ns-2" };
    expect(await commit(n2, content(n2, [["A", "calls", "C"]]), 1)).toEqual({ revision: 2 });
  });

  it(`live_facts_per_session: ${MAX_LIVE_FACTS_PER_SESSION} live facts across namespaces, then refused`, async () => {
    const o = owner();
    const perNs = MAX_FACTS_PER_NAMESPACE;
    const full = MAX_LIVE_FACTS_PER_SESSION / perNs;
    for (let i = 0; i < full; i++) {
      const n = { ...o, ns: `ns-${i}` };
      await commit(n, content(n, manyTriples(perNs)), 0);
    }
    const extra = { ...o, ns: "ns-extra" };
    expect(await refusal(commit(extra, content(extra, [["A", "calls", "B"]]), 0))).toEqual({ code: "limit_exceeded", limit: "live_facts_per_session" });
    expect(await store().load(extra, now)).toBeNull();
    // Shrinking one namespace frees room; clearing one frees its facts (the root stays counted).
    const n0 = { ...o, ns: "ns-0" };
    await commit(n0, content(n0, manyTriples(perNs - 1)), 1);
    expect(await commit(extra, content(extra, [["A", "calls", "B"]]), 0)).toEqual({ revision: 1 });
    expect(await refusal(commit(extra, content(extra, [["A", "calls", "B"], ["A", "calls", "C"]]), 1))).toEqual({ code: "limit_exceeded", limit: "live_facts_per_session" });
    await store().clear({ ...o, ns: "ns-1" }, exp, now);
    expect(await commit(extra, content(extra, manyTriples(perNs)), 1)).toEqual({ revision: 2 });
  });

  it("racing quota: two namespaces of one session both trying to take the last live fact — exactly one wins", async () => {
    const o = owner();
    const perNs = MAX_FACTS_PER_NAMESPACE;
    const full = MAX_LIVE_FACTS_PER_SESSION / perNs;
    for (let i = 0; i < full - 1; i++) {
      const n = { ...o, ns: `ns-${i}` };
      await commit(n, content(n, manyTriples(perNs)), 0);
    }
    const last = { ...o, ns: `ns-${full - 1}` };
    await commit(last, content(last, manyTriples(perNs - 1)), 0);
    const x = { ...o, ns: "ns-x" };
    const results = await Promise.allSettled([
      commit(last, content(last, manyTriples(perNs)), 1),
      commit(x, content(x, [["A", "calls", "B"]]), 0),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).details?.limit).toBe("live_facts_per_session");
  });

  if (opts.slow !== false) {
    it(`scope_roots_per_tenant: ${MAX_SCOPE_ROOTS_PER_TENANT} retained roots per tenant, then refused`, async () => {
      const tenant = rid("org");
      const sessions = MAX_SCOPE_ROOTS_PER_TENANT / MAX_NAMESPACES_PER_SESSION;
      for (let s = 0; s < sessions; s++) {
        const base = owner({ tenant_id: tenant });
        for (let n = 0; n < MAX_NAMESPACES_PER_SESSION; n++) await store().clear({ ...base, ns: `ns-${n}` }, exp, now);
      }
      const next = owner({ tenant_id: tenant });
      expect(await refusal(commit(next, content(next, [["A", "calls", "B"]]), 0))).toEqual({ code: "limit_exceeded", limit: "scope_roots_per_tenant" });
      expect(await store().load(next, now)).toBeNull();
      // Another tenant is not affected.
      const other = owner();
      expect(await commit(other, content(other, [["A", "calls", "B"]]), 0)).toEqual({ revision: 1 });
    }, opts.slowBudgetMs);

    it(`live_facts_per_tenant: ${MAX_LIVE_FACTS_PER_TENANT} live facts per tenant, then refused`, async () => {
      const tenant = rid("org");
      const perSession = MAX_LIVE_FACTS_PER_SESSION / MAX_FACTS_PER_NAMESPACE;
      const sessions = MAX_LIVE_FACTS_PER_TENANT / MAX_LIVE_FACTS_PER_SESSION;
      let last: ScopeOwner | undefined;
      for (let s = 0; s < sessions; s++) {
        const base = owner({ tenant_id: tenant });
        for (let n = 0; n < perSession; n++) {
          const o = { ...base, ns: `ns-${n}` };
          await commit(o, content(o, manyTriples(MAX_FACTS_PER_NAMESPACE)), 0);
          last = o;
        }
      }
      const next = owner({ tenant_id: tenant });
      expect(await refusal(commit(next, content(next, [["A", "calls", "B"]]), 0))).toEqual({ code: "limit_exceeded", limit: "live_facts_per_tenant" });
      // Freeing one fact lets exactly one in.
      await commit(last!, content(last!, manyTriples(MAX_FACTS_PER_NAMESPACE - 1)), 1);
      expect(await commit(next, content(next, [["A", "calls", "B"]]), 0)).toEqual({ revision: 1 });
      const again = { ...next, ns: rid("repo") };
      expect(await refusal(commit(again, content(again, [["A", "calls", "B"]]), 0))).toEqual({ code: "limit_exceeded", limit: "live_facts_per_tenant" });
    }, opts.slowBudgetMs);
  }

  it("purgeSession removes graph data in bounded batches; roots and tombstones stay", async () => {
    const o = owner();
    for (const ns of ["p1", "p2"]) {
      const n = { ...o, ns };
      await commit(n, content(n, manyTriples(100)), 0);
    }
    await store().revokeSession(o.tenant_id, o.session_id, now);
    let rounds = 0;
    let removed = 0;
    for (;;) {
      const r = await store().purgeSession(o.tenant_id, o.session_id, 50);
      expect(r.removed).toBeLessThanOrEqual(50);
      removed += r.removed;
      rounds++;
      if (r.done) break;
      expect(rounds).toBeLessThan(100);
    }
    expect(removed).toBeGreaterThanOrEqual(200);
    expect(rounds).toBeGreaterThan(2);
    expect((await refusal(store().load({ ...o, ns: "p1" }, now))).code).toBe("session_revoked");
  });

  it("purgeExpired removes expired namespaces' data in batches, and leaves live ones", async () => {
    const o = owner();
    const live = owner();
    await commit(o, content(o, manyTriples(60)), 0, { expiresAt: now + 1000 });
    await commit(live, content(live, manyTriples(10)), 0);
    let total = 0;
    for (let i = 0; i < 1000; i++) {
      const r = await store().purgeExpired(now + 1000, 40);
      total += r.removed;
      if (r.done) break;
    }
    expect(total).toBeGreaterThanOrEqual(60);
    expect((await store().load(live, now))?.facts).toHaveLength(10);
    expect((await refusal(store().load(o, now + 1000))).code).toBe("session_expired");
  });

  // ---- vectors (VEC-1, VEC-2) ----

  it("vectors: equal logical IDs in two sessions never overwrite each other; search stays in its scope and live", async () => {
    const v = h().vectors;
    const a = owner();
    const b = owner({ tenant_id: a.tenant_id, ns: a.ns });
    await v.upsert([
      { key: keyOf(a), id: "same", model: "m", vector: [1, 0, 0], expires_at: exp },
      { key: keyOf(b), id: "same", model: "m", vector: [0, 1, 0], expires_at: exp },
      { key: keyOf(a), id: "old", model: "m", vector: [1, 0, 0], expires_at: now - 1 },
      { key: keyOf(a), id: "other-model", model: "m2", vector: [1, 0, 0], expires_at: exp },
    ]);
    const ha = await v.search(keyOf(a), [1, 0, 0], { model: "m", limit: 10, now });
    expect(ha.map((x) => [x.session_id, x.id, Math.round(x.score)])).toEqual([[a.session_id, "same", 1]]);
    const hb = await v.search(keyOf(b), [1, 0, 0], { model: "m", limit: 10, now });
    expect(hb.map((x) => [x.session_id, x.id, Math.round(x.score)])).toEqual([[b.session_id, "same", 0]]);
    for (const hit of [...ha, ...hb]) expect(hit.tenant_id).toBe(a.tenant_id);
    let done = false;
    for (let i = 0; i < 10 && !done; i++) done = (await v.deleteSession(a.tenant_id, a.session_id, 1)).done;
    expect(done).toBe(true);
    expect(await v.search(keyOf(a), [1, 0, 0], { model: "m", limit: 10, now })).toEqual([]);
    expect(await v.search(keyOf(b), [0, 1, 0], { model: "m", limit: 10, now })).toHaveLength(1);
  });

  it("recall drops foreign, expired, scoreless and stale vector hits (VEC-2) and keeps lexical recall without vectors", async () => {
    const v = h().vectors;
    const clock = new ManualClock(now);
    const embedder = modelEmbedder();
    const mine = owner();
    const theirs = owner({ tenant_id: mine.tenant_id, subject_id: mine.subject_id, ns: mine.ns });
    const vec = async (text: string) => (await embedder.embed(identityOf(mine), [text]))[0]!;
    const engineFor = (vectors: SessionVectorIndex | undefined) => new SessionMemoryEngine({ store: store(), clock, vectors, embedder });
    const scope = (o: ScopeOwner) => ({ identity: identityOf(o), ns: o.ns, expiresAt: exp });
    await engineFor(v).upsert(scope(theirs), { triples: [{ subject: "PaymentGateway", predicate: "charges", object: "CreditCard" }] });
    await engineFor(v).upsert(scope(mine), { triples: [{ subject: "AuthService", predicate: "issues", object: "SessionToken" }] });
    const theirHits = await v.search(keyOf(theirs), await vec("PaymentGateway"), { model: embedder.model, limit: 10, now });
    expect(theirHits.length).toBeGreaterThan(0);
    // A faulty index (e.g. a wrong filter in a remote store) answering with another scope's hits,
    // expired hits and hits without a valid score: the engine must drop every one.
    const faulty: SessionVectorIndex = {
      kind: "faulty",
      upsert: (r) => v.upsert(r),
      deleteScope: (k) => v.deleteScope(k),
      deleteSession: (t, s, n) => v.deleteSession(t, s, n),
      deleteExpired: (t, n) => v.deleteExpired(t, n),
      search: async (key: ScopeKey): Promise<VectorHit[]> => {
        const foreign = theirHits.map((x) => ({ ...x }));
        const forged = theirHits.map((x) => ({ ...x, session_id: key.session_id })); // right scope fields, entity not in my snapshot
        const mineHits = await v.search(key, await vec("PaymentGateway"), { model: embedder.model, limit: 10, now });
        const expired = mineHits.map((x) => ({ ...x, expires_at: now - 1 }));
        const nan = mineHits.map((x) => ({ ...x, score: Number.NaN }));
        return [...foreign, ...forged, ...expired, ...nan];
      },
    };
    const r = await engineFor(faulty).recall(scope(mine), { query: "PaymentGateway charges CreditCard", limit: 5 });
    expect(r.results).toEqual([]);
    const lexical = await engineFor(undefined).recall(scope(mine), { query: "which service issues tokens? AuthService", limit: 5 });
    expect(lexical.results.map((x) => x.subject.name)).toEqual(["AuthService"]);
    const hybrid = await engineFor(v).recall(scope(mine), { query: "authentication session tokens", limit: 5 });
    expect(hybrid.results[0]?.subject.name).toBe("AuthService");
    expect(hybrid.results.every((x) => x.fact_id.startsWith("sf_"))).toBe(true);
  });

  it("engine: two sessions of one user in one repository never see each other's facts; clear closes for good", async () => {
    const clock = new ManualClock(now);
    const engine = new SessionMemoryEngine({ store: store(), clock, vectors: h().vectors, embedder: modelEmbedder() });
    const a = owner();
    const b = owner({ tenant_id: a.tenant_id, subject_id: a.subject_id, ns: a.ns });
    const sa = { identity: identityOf(a), ns: a.ns, expiresAt: exp };
    const sb = { identity: identityOf(b), ns: b.ns, expiresAt: exp };
    await engine.upsert(sa, { triples: [{ subject: "OnlyInA", predicate: "uses", object: "Thing" }] });
    await engine.upsert(sb, { triples: [{ subject: "OnlyInB", predicate: "uses", object: "Thing" }] });
    expect((await engine.read(sa)).facts.map((f) => f.subject.name)).toEqual(["OnlyInA"]);
    expect((await engine.read(sb)).facts.map((f) => f.subject.name)).toEqual(["OnlyInB"]);
    expect((await engine.recall(sb, { query: "OnlyInA uses Thing" })).results.map((f) => f.subject.name)).not.toContain("OnlyInA");
    const aFact = (await engine.read(sa)).facts[0]!.fact_id;
    expect(await engine.factsById(sb, [aFact])).toEqual([]);
    await engine.clear(sa);
    expect((await refusal(engine.upsert(sa, { triples: [{ subject: "X", predicate: "uses", object: "Y" }] }))).code).toBe("namespace_closed");
    expect((await engine.read(sb)).facts).toHaveLength(1);
  });

  it("engine: names and sources are redacted before they reach the store", async () => {
    const engine = new SessionMemoryEngine({ store: store(), clock: new ManualClock(now) });
    const o = owner();
    const scope = { identity: identityOf(o), ns: o.ns, expiresAt: exp };
    const token = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa99";
    await engine.upsert(scope, { triples: [{ subject: "Deploy", predicate: "uses", object: token }], source: `pasted ${token}` });
    const s = await store().load(o, now);
    expect(JSON.stringify(s)).not.toContain(token);
    expect(JSON.stringify(s)).toContain("[REDACTED:");
  });
}

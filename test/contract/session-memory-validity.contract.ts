/**
 * The contract cases for memory that changes: supersession (named and by a
 * single-valued predicate), retraction, `as_of` reads and recall, history
 * bounds and quotas, import all or nothing, and erasure that leaves nothing
 * in any store. Run by `sessionMemoryContract` on every adapter, through the
 * engine over the adapter under test (each step re-loads from the store).
 *
 * `residue`, when the harness gives it, reads the adapter's backend directly
 * (SQL, Cypher, Gremlin; not through the adapter's load) and counts what is
 * left of one session: entity and fact rows, non-empty namespace docs (which
 * hold the history) and vectors.
 */
import { expect, it } from "vitest";
import { AppError } from "../../core/errors";
import { ManualClock } from "../../core/clock";
import { MAX_HISTORY_PER_NAMESPACE, MAX_LIVE_FACTS_PER_SESSION } from "../../core/limits";
import { LocalHashEmbedder } from "../../core/memory/embedder";
import { SessionMemoryEngine, type MemoryScope } from "../../core/memory/engine";
import { historyOf } from "../../core/memory/history";
import { factId } from "../../core/memory/ids";
import { revokeSessionMemory, purgeSession } from "../../core/memory/services";
import type { SessionMemoryStore } from "../../core/memory/store";
import type { FactVersion, ScopeOwner, SnapshotContent } from "../../core/memory/types";
import type { SessionVectorIndex } from "../../core/memory/vector-index";
import { content, identityOf, manyTriples, owner } from "./memory-fixtures";

export interface Residue {
  entities: number;
  facts: number;
  /** Namespace roots of the session whose doc (history, predicate table) is not empty. */
  docs: number;
  vectors: number;
}

export interface ValidityHarness {
  store: SessionMemoryStore;
  vectors: SessionVectorIndex;
  residue?: (tenantId: string, sessionId: string) => Promise<Residue>;
}

const DAY = 24 * 3600 * 1000;
const MIN = 60_000;

async function refusal(p: Promise<unknown>): Promise<{ code: string; limit?: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, ...(err.details?.limit !== undefined ? { limit: err.details.limit } : {}) };
    throw err;
  }
  throw new Error("expected a refusal, but the call succeeded");
}

/** A namespace snapshot holding `live` facts plus `ended` history entries over distinct triples. */
function withHistory(o: ScopeOwner, live: number, ended: number, at: number): SnapshotContent {
  const all = content(o, manyTriples(live + ended));
  const gone = all.facts.slice(live);
  const history: FactVersion[] = gone.map((f) => ({
    fact_id: f.fact_id,
    subject_id: f.subject_id,
    predicate: f.predicate,
    object_id: f.object_id,
    valid_from: at - MIN,
    valid_to: at,
    session_id: o.session_id,
    ended: "retracted",
    replaced_by: [],
  }));
  return { doc: history.length ? { history } : {}, entities: all.entities, facts: all.facts.slice(0, live) };
}

export function sessionMemoryValidityContract(h: () => ValidityHarness): void {
  const t0 = Date.UTC(2026, 11, 2, 12);
  const exp = t0 + 7 * DAY;
  const setup = (o: ScopeOwner = owner()) => {
    const clock = new ManualClock(t0);
    const engine = new SessionMemoryEngine({ store: h().store, clock, vectors: h().vectors, embedder: new LocalHashEmbedder() });
    const scope: MemoryScope = { identity: identityOf(o), ns: o.ns, expiresAt: exp };
    return { o, clock, engine, scope };
  };
  const names = (facts: Array<{ subject: { name: string }; predicate: string; object: { name: string } }>) =>
    facts.map((f) => `${f.subject.name} ${f.predicate} ${f.object.name}`).sort();

  it("supersedes: a named fact leaves reads and recall, stays in its history, and as_of still sees it", async () => {
    const { clock, engine, scope } = setup();
    const old = (await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "RS256" }] })).facts[0]!;
    clock.advance(10 * MIN);
    const r = await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "ES256" }], supersedes: [old.fact_id] });
    expect(r.superseded).toEqual([old.fact_id]);
    expect(names((await engine.read(scope)).facts)).toEqual(["AuthService signs_with ES256"]);
    const recalled = await engine.recall(scope, { query: "AuthService signs with", mode: "lexical" });
    expect(names(recalled.results)).toEqual(["AuthService signs_with ES256"]);
    // What the thread believed five minutes after learning RS256.
    expect(names((await engine.read(scope, { asOf: t0 + 5 * MIN })).facts)).toEqual(["AuthService signs_with RS256"]);
    expect(names((await engine.recall(scope, { query: "AuthService signs with", mode: "lexical", asOf: t0 + 5 * MIN })).results)).toEqual([
      "AuthService signs_with RS256",
    ]);
    expect((await engine.read(scope, { asOf: t0 - 1 })).facts).toEqual([]);
    const hist = await engine.history(scope, old.fact_id);
    expect(hist.versions).toEqual([
      expect.objectContaining({
        status: "superseded",
        valid_from: new Date(t0).toISOString(),
        valid_to: new Date(t0 + 10 * MIN).toISOString(),
        replaced_by: [r.facts[0]!.fact_id],
        session_id: scope.identity.session_id,
      }),
    ]);
    expect((await engine.history(scope, r.facts[0]!.fact_id)).versions).toEqual([expect.objectContaining({ status: "current", valid_to: null })]);
  });

  it("supersedes is all or nothing: an unknown or already ended fact refuses the call and writes nothing", async () => {
    const { o, engine, scope } = setup();
    const a = (await engine.upsert(scope, { triples: [{ subject: "A", predicate: "uses", object: "B" }] })).facts[0]!;
    const before = await h().store.load(o, t0);
    const stranger = factId({ tenant_id: o.tenant_id, session_id: "other", ns: o.ns }, "se_x", "uses", "se_y");
    const tried = engine.upsert(scope, { triples: [{ subject: "A", predicate: "uses", object: "C" }], supersedes: [a.fact_id, stranger] });
    expect((await refusal(tried)).code).toBe("not_found");
    const after = await h().store.load(o, t0);
    expect(after?.revision).toBe(before?.revision);
    expect(after?.facts.map((f) => f.fact_id)).toEqual([a.fact_id]);
    await engine.retract(scope, a.fact_id);
    expect((await refusal(engine.upsert(scope, { triples: [{ subject: "A", predicate: "uses", object: "C" }], supersedes: [a.fact_id] }))).code).toBe("not_found");
    // A fact cannot supersede itself.
    const c = (await engine.upsert(scope, { triples: [{ subject: "A", predicate: "uses", object: "C" }] })).facts[0]!;
    expect((await refusal(engine.upsert(scope, { triples: [{ subject: "A", predicate: "uses", object: "C" }], supersedes: [c.fact_id] }))).code).toBe("validation_failed");
  });

  it("single-valued predicates: a new object for the same subject replaces the old fact, and the declaration sticks", async () => {
    const { o, clock, engine, scope } = setup();
    await engine.upsert(scope, {
      triples: [
        { subject: "AuthService", predicate: "signs_with", object: "RS256" },
        { subject: "AuthService", predicate: "depends_on", object: "TokenStore" },
      ],
      single_valued: ["signs_with"],
    });
    clock.advance(MIN);
    const r = await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "ES256" }] });
    expect(r.superseded).toHaveLength(1);
    clock.advance(MIN);
    // depends_on is not declared: it stays multi-valued.
    await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "depends_on", object: "Redis" }] });
    expect(names((await engine.read(scope)).facts)).toEqual(["AuthService depends_on Redis", "AuthService depends_on TokenStore", "AuthService signs_with ES256"]);
    // Two objects for one single-valued slot in one call: refused, nothing written.
    const rev = (await h().store.load(o, clock.now().getTime()))?.revision;
    const both = engine.upsert(scope, {
      triples: [
        { subject: "AuthService", predicate: "signs_with", object: "EdDSA" },
        { subject: "AuthService", predicate: "signs_with", object: "PS256" },
      ],
    });
    expect((await refusal(both)).code).toBe("validation_failed");
    expect((await h().store.load(o, clock.now().getTime()))?.revision).toBe(rev);
    // Re-learning a superseded fact makes it current again with a new valid_from; its history keeps the old interval.
    clock.advance(MIN);
    const back = await engine.upsert(scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "RS256" }] });
    const hist = await engine.history(scope, back.facts[0]!.fact_id);
    expect(hist.versions.map((v) => v.status)).toEqual(["superseded", "current"]);
    expect(hist.versions[1]!.valid_from).toBe(new Date(t0 + 3 * MIN).toISOString());
  });

  it("concurrent writers of one single-valued slot: exactly one fact stays current, the replaced ones are in history", async () => {
    const { o, engine, scope } = setup();
    await engine.upsert(scope, { triples: [{ subject: "Api", predicate: "deployed_to", object: "eu-west-1" }], single_valued: ["deployed_to"] });
    const regions = ["us-east-1", "ap-south-1", "eu-central-1"];
    const settled = await Promise.allSettled(regions.map((r) => engine.upsert(scope, { triples: [{ subject: "Api", predicate: "deployed_to", object: r }] })));
    // Each writer either won a commit or gave up after its retries with a revision conflict; never a merge of both.
    for (const x of settled) if (x.status === "rejected") expect((x.reason as AppError).code).toBe("revision_conflict");
    const won = settled.filter((x) => x.status === "fulfilled").length;
    expect(won).toBeGreaterThanOrEqual(1);
    const s = await h().store.load(o, t0);
    const live = s!.facts.filter((f) => f.predicate === "deployed_to");
    expect(live).toHaveLength(1);
    // Every write that committed ended the fact current before it: the history holds exactly those.
    expect(historyOf(s!).filter((v) => v.predicate === "deployed_to")).toHaveLength(won);
  });

  it("retracts: the fact leaves reads and recall, its history says when, and a second retraction is 404", async () => {
    const { o, clock, engine, scope } = setup();
    const f = (await engine.upsert(scope, { triples: [{ subject: "Cache", predicate: "backed_by", object: "Memcached" }], observed_at: t0 - 60 * MIN })).facts[0]!;
    clock.advance(5 * MIN);
    const r = await engine.retract(scope, f.fact_id);
    expect(r.valid_to).toBe(new Date(t0 + 5 * MIN).toISOString());
    expect((await engine.read(scope)).facts).toEqual([]);
    expect((await engine.recall(scope, { query: "Cache Memcached" })).results).toEqual([]);
    expect((await refusal(engine.retract(scope, f.fact_id))).code).toBe("not_found");
    const v = (await engine.history(scope, f.fact_id)).versions;
    expect(v).toEqual([
      expect.objectContaining({ status: "retracted", replaced_by: [], observed_at: new Date(t0 - 60 * MIN).toISOString(), valid_to: r.valid_to }),
    ]);
    expect(names((await engine.read(scope, { asOf: t0 + MIN })).facts)).toEqual(["Cache backed_by Memcached"]);
    // A fact the namespace never held: 404, like a foreign one.
    expect((await refusal(engine.history(scope, factId(o, "se_a", "x", "se_b")))).code).toBe("not_found");
  });

  it("history is bounded by its own limit, beside the live limits, and nothing is written past it", async () => {
    const { o, engine, scope } = setup();
    const full = withHistory(o, 2, MAX_HISTORY_PER_NAMESPACE, t0);
    expect(historyOf(full)).toHaveLength(MAX_HISTORY_PER_NAMESPACE);
    await h().store.commit({ owner: o, expectedRevision: 0, expiresAt: exp, content: full, now: t0 });
    const s = await h().store.load(o, t0);
    expect(historyOf(s!)).toHaveLength(MAX_HISTORY_PER_NAMESPACE);
    expect(s!.facts).toHaveLength(2);
    const refused = await refusal(engine.retract(scope, s!.facts[0]!.fact_id));
    expect(refused).toEqual({ code: "limit_exceeded", limit: "history_per_namespace" });
    expect((await h().store.load(o, t0))?.revision).toBe(1);
    // A direct adapter writer meets the same bound.
    const over = withHistory(o, 1, MAX_HISTORY_PER_NAMESPACE + 1, t0);
    expect(await refusal(h().store.commit({ owner: o, expectedRevision: 1, expiresAt: exp, content: over, now: t0 }))).toEqual({
      code: "limit_exceeded",
      limit: "history_per_namespace",
    });
  });

  it("history expires with the namespace: after the deadline it is gone with the facts", async () => {
    const { o, engine, scope } = setup();
    const f = (await engine.upsert(scope, { triples: [{ subject: "Temp", predicate: "holds", object: "Secret" }] })).facts[0]!;
    await engine.retract(scope, f.fact_id);
    expect(historyOf((await h().store.load(o, t0))!)).toHaveLength(1);
    expect((await refusal(h().store.load(o, exp))).code).toBe("session_expired");
    if (h().residue) expect(await h().residue!(o.tenant_id, o.session_id)).toMatchObject({ entities: 0, facts: 0, docs: 0 });
  });

  it("history counts toward the per-session fact quota", async () => {
    const a = owner();
    const perNs = MAX_LIVE_FACTS_PER_SESSION / 4; // 512 = 256 live + 256 history
    for (let i = 0; i < 4; i++) {
      const o = { ...a, ns: `${a.ns}-${i}` };
      await h().store.commit({ owner: o, expectedRevision: 0, expiresAt: exp, content: withHistory(o, perNs / 2, perNs / 2, t0), now: t0 });
    }
    const extra = { ...a, ns: `${a.ns}-x` };
    expect(await refusal(h().store.commit({ owner: extra, expectedRevision: 0, expiresAt: exp, content: content(extra, [["A", "r", "B"]]), now: t0 }))).toEqual({
      code: "limit_exceeded",
      limit: "live_facts_per_session",
    });
  });

  it("import is all or nothing, into an empty namespace of a session that may still write", async () => {
    const src = setup();
    await src.engine.upsert(src.scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "RS256" }], single_valued: ["signs_with"] });
    src.clock.advance(MIN);
    await src.engine.upsert(src.scope, { triples: [{ subject: "AuthService", predicate: "signs_with", object: "ES256" }] });
    const { lines } = await src.engine.exportLines(src.scope);
    const dst = setup(owner({ tenant_id: src.o.tenant_id, subject_id: src.o.subject_id }));

    // One bad line in the middle: nothing is written.
    const rows = lines.trim().split("\n");
    const broken = [...rows.slice(0, 2), '{"kind":"fact","fact_id":"x"}', ...rows.slice(2)].join("\n");
    expect((await refusal(dst.engine.importLines(dst.scope, broken))).code).toBe("validation_failed");
    expect(await h().store.load(dst.o, t0)).toBeNull();
    // A fact whose endpoint is not in the file: refused too.
    const dangling = rows.filter((l) => !l.includes('"name":"ES256"')).join("\n");
    expect((await refusal(dst.engine.importLines(dst.scope, dangling))).code).toBe("validation_failed");
    expect(await h().store.load(dst.o, t0)).toBeNull();

    const done = await dst.engine.importLines(dst.scope, lines);
    expect(done).toMatchObject({ entities: 3, facts: 1, history: 1 });
    expect(names((await dst.engine.read(dst.scope)).facts)).toEqual(["AuthService signs_with ES256"]);
    // Into a namespace that already holds facts: refused.
    expect((await refusal(dst.engine.importLines(dst.scope, lines))).code).toBe("conflict");
    // Never a way to reopen a cleared namespace or a revoked session.
    const cleared = setup(owner());
    await cleared.engine.clear(cleared.scope);
    expect((await refusal(cleared.engine.importLines(cleared.scope, lines))).code).toBe("namespace_closed");
    const revoked = setup(owner());
    await h().store.revokeSession(revoked.o.tenant_id, revoked.o.session_id, t0);
    expect((await refusal(revoked.engine.importLines(revoked.scope, lines))).code).toBe("session_revoked");
  });

  it("erasure leaves nothing in any store: clear answers a receipt, revocation purges history, entities, facts and vectors", async () => {
    const a = setup();
    const f = (await a.engine.upsert(a.scope, { triples: [{ subject: "Billing", predicate: "stores_in", object: "Postgres" }] })).facts[0]!;
    await a.engine.upsert(a.scope, { triples: [{ subject: "Billing", predicate: "stores_in", object: "Aurora" }], supersedes: [f.fact_id] });
    const receipt = await a.engine.clear(a.scope);
    expect(receipt.done).toBe(true);
    expect(receipt.stores[0]).toMatchObject({ store: `graph:${h().store.kind}`, entities: 3, facts: 1, history: 1, status: "done" });
    expect(receipt.stores[1]).toMatchObject({ store: `vectors:${h().vectors.kind}`, status: "done" });
    expect((await refusal(h().store.load(a.o, t0))).code).toBe("namespace_closed");
    const embedder = new LocalHashEmbedder();
    const [q] = await embedder.embed(a.scope.identity, ["Billing Postgres Aurora"]);
    expect(await h().vectors.search({ tenant_id: a.o.tenant_id, session_id: a.o.session_id, ns: a.o.ns }, q!, { model: embedder.model, limit: 10, now: t0 })).toEqual([]);
    if (h().residue) expect(await h().residue!(a.o.tenant_id, a.o.session_id)).toEqual({ entities: 0, facts: 0, docs: 0, vectors: 0 });

    // Revocation of a session with two namespaces, history and vectors.
    const b = setup();
    const second = { ...b.scope, ns: `${b.o.ns}-2` };
    const g = (await b.engine.upsert(b.scope, { triples: [{ subject: "Queue", predicate: "runs_on", object: "Redis" }] })).facts[0]!;
    await b.engine.upsert(b.scope, { triples: [{ subject: "Queue", predicate: "runs_on", object: "Valkey" }], supersedes: [g.fact_id] });
    await b.engine.upsert(second, { triples: [{ subject: "Worker", predicate: "reads", object: "Queue" }] });
    if (h().residue) {
      const before = await h().residue!(b.o.tenant_id, b.o.session_id);
      expect(before).toMatchObject({ entities: 5, facts: 2, docs: 1 });
      // The direct read sees the vectors too (one per entity), so the zero below is a real zero.
      expect(before.vectors).toBe(5);
    }
    let r = await revokeSessionMemory(h(), b.o.tenant_id, b.o.session_id, t0);
    while (!r.done) r = await purgeSession(h(), b.o.tenant_id, b.o.session_id);
    expect((await refusal(h().store.load(b.o, t0))).code).toBe("session_revoked");
    if (h().residue) expect(await h().residue!(b.o.tenant_id, b.o.session_id)).toEqual({ entities: 0, facts: 0, docs: 0, vectors: 0 });
  });
}

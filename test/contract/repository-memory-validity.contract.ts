/**
 * Durable memory that changes, on every RepositoryMemoryStore adapter
 * (memory, PGlite, PostgreSQL, Neo4j, HugeGraph): supersession by ID and by
 * single-valued predicate, retraction, as_of on recall and on the subgraph,
 * the history and its bound (counted toward the fact quota), forget removing
 * a session's history, and re-ingest pruning still working beside history.
 * Included by repositoryMemoryContract; runs through the real RepositoryMemory
 * over the adapter under test.
 */
import { expect, it } from "vitest";
import { ManualClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { MAX_REPO_HISTORY } from "../../core/limits";
import { repoFactId, repoNodeId } from "../../core/memory/ids";
import { RepositoryMemory } from "../../core/memory/repository";
import { repoHistoryOf } from "../../core/memory/repository-history";
import type { RepoFactVersion, RepositoryMemoryStore } from "../../core/memory/repository-store";
import { identityOf, owner, rid } from "./memory-fixtures";

async function refusal(p: Promise<unknown>): Promise<{ code: string; limit?: unknown } | "resolved"> {
  try {
    await p;
    return "resolved";
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const limit = (err.details as { limit?: unknown } | undefined)?.limit;
    return { code: err.code, ...(limit !== undefined ? { limit } : {}) };
  }
}

export function repositoryValidityContract(h: () => RepositoryMemoryStore): void {
  const t0 = Date.UTC(2026, 11, 3, 9);
  const setup = () => {
    const clock = new ManualClock(t0);
    const mem = new RepositoryMemory({ repo: h(), clock });
    const a = owner();
    return { clock, mem, repo: a.ns, alice: identityOf(a), bob: identityOf(owner({ tenant_id: a.tenant_id, ns: a.ns })) };
  };
  const triple = (s: string, p: string, o: string) => ({ subject: s, predicate: p, object: o });
  const liveIds = async (mem: RepositoryMemory, repo: string, who: ReturnType<typeof identityOf>, q: string) =>
    (await mem.recall(who, repo, { query: q, limit: 50, mode: "lexical" })).results.map((r) => `${r.subject.name} ${r.predicate} ${r.object.name}`).sort();

  it("supersedes by ID: the old fact leaves recall, its history names who wrote it, who ended it and what replaced it; as_of still sees it", async () => {
    const { clock, mem, repo, alice, bob } = setup();
    const old = (await mem.upsertTriples(alice, repo, { triples: [triple("AuthService", "signs_with", "RS256")] })).facts[0]!;
    clock.advance(60_000);
    const r = await mem.upsertTriples(bob, repo, { triples: [triple("AuthService", "signs_with", "ES256")], supersedes: [old.fact_id] });
    expect(r.superseded).toEqual([old.fact_id]);
    expect(await liveIds(mem, repo, alice, "AuthService")).toEqual(["AuthService signs_with ES256"]);
    const past = await mem.recall(alice, repo, { query: "AuthService", limit: 10, mode: "lexical", asOf: t0 + 30_000 });
    expect(past.results.map((x) => x.object.name)).toEqual(["RS256"]);
    const before = await mem.recall(alice, repo, { query: "AuthService", limit: 10, mode: "lexical", asOf: t0 - 1 });
    expect(before.results).toEqual([]);
    const h = await mem.history(repo, old.fact_id);
    expect(h.versions).toEqual([
      expect.objectContaining({
        fact_id: old.fact_id,
        origin_session_id: alice.session_id,
        ended_by: bob.session_id,
        status: "superseded",
        valid_from: new Date(t0).toISOString(),
        valid_to: new Date(t0 + 60_000).toISOString(),
        replaced_by: [r.facts[0]!.fact_id],
      }),
    ]);
    const cur = await mem.history(repo, r.facts[0]!.fact_id);
    expect(cur.versions).toEqual([expect.objectContaining({ status: "current", valid_to: null, origin_session_id: bob.session_id, valid_from: new Date(t0 + 60_000).toISOString() })]);
    // The subgraph as it was then, and now.
    const node = repoNodeId(repo, "", "AuthService");
    expect((await mem.querySubgraph(repo, node, 1, 10)).edges.map((e) => e.id)).toEqual([r.facts[0]!.fact_id]);
    expect((await mem.querySubgraph(repo, node, 1, 10, t0 + 1)).edges.map((e) => e.id)).toEqual([old.fact_id]);
  });

  it("supersedes is all or nothing: an unknown, foreign or already ended fact refuses the call and writes nothing", async () => {
    const { mem, repo, alice } = setup();
    const old = (await mem.upsertTriples(alice, repo, { triples: [triple("Queue", "backed_by", "Redis")] })).facts[0]!;
    const elsewhere = rid("repo");
    const foreign = (await mem.upsertTriples(alice, elsewhere, { triples: [triple("Queue", "backed_by", "Redis")] })).facts[0]!;
    expect(await refusal(mem.upsertTriples(alice, repo, { triples: [triple("Queue", "backed_by", "Kafka")], supersedes: [foreign.fact_id] }))).toEqual({ code: "not_found" });
    await mem.retract(alice, repo, old.fact_id);
    expect(await refusal(mem.upsertTriples(alice, repo, { triples: [triple("Queue", "backed_by", "Kafka")], supersedes: [old.fact_id] }))).toEqual({ code: "not_found" });
    expect(await liveIds(mem, repo, alice, "Queue Kafka")).toEqual([]);
    expect(repoHistoryOf((await h().loadMeta(repo)).doc)).toHaveLength(1);
    // A fact cannot supersede itself.
    const again = (await mem.upsertTriples(alice, repo, { triples: [triple("Queue", "backed_by", "Redis")] })).facts[0]!;
    expect(await refusal(mem.upsertTriples(alice, repo, { triples: [triple("Queue", "backed_by", "Redis")], supersedes: [again.fact_id] }))).toEqual({ code: "validation_failed" });
  });

  it("single-valued predicates: a new object replaces the old fact in this and later writes (promotion included); two objects in one write are refused", async () => {
    const { clock, mem, repo, alice, bob } = setup();
    await mem.upsertTriples(alice, repo, { triples: [triple("Api", "deployed_on", "k8s-eu"), triple("Api", "calls", "Billing")] });
    clock.advance(1000);
    const r = await mem.upsertTriples(bob, repo, { triples: [triple("Api", "deployed_on", "k8s-us")], single_valued: ["deployed_on"] });
    expect(r.superseded).toEqual([repoFactId(repo, repoNodeId(repo, "", "Api"), "deployed_on", repoNodeId(repo, "", "k8s-eu"))]);
    clock.advance(1000);
    const later = await mem.upsertTriples(alice, repo, { triples: [triple("Api", "deployed_on", "fly-io")] });
    expect(later.superseded).toEqual([r.facts[0]!.fact_id]);
    expect(await liveIds(mem, repo, alice, "Api")).toEqual(["Api calls Billing", "Api deployed_on fly-io"]);
    expect((await h().loadMeta(repo)).doc.single_valued).toEqual(["deployed_on"]);
    expect(await refusal(mem.upsertTriples(alice, repo, { triples: [triple("Api", "deployed_on", "a"), triple("Api", "deployed_on", "b")] }))).toEqual({ code: "validation_failed" });
    expect(await liveIds(mem, repo, alice, "Api")).toEqual(["Api calls Billing", "Api deployed_on fly-io"]);
  });

  it("concurrent writers of one single-valued slot: exactly one fact stays current, the others are in history", async () => {
    const { mem, repo, alice } = setup();
    await mem.upsertTriples(alice, repo, { triples: [triple("Svc", "owner", "team-0")], single_valued: ["owner"] });
    const results = await Promise.allSettled([1, 2, 3].map((i) => mem.upsertTriples(alice, repo, { triples: [triple("Svc", "owner", `team-${i}`)] })));
    const ok = results.filter((x) => x.status === "fulfilled").length;
    expect(ok).toBeGreaterThanOrEqual(1);
    for (const x of results) if (x.status === "rejected") expect((x.reason as AppError).code).toBe("revision_conflict");
    expect(await liveIds(mem, repo, alice, "Svc")).toHaveLength(1);
    expect(repoHistoryOf((await h().loadMeta(repo)).doc)).toHaveLength(ok);
  });

  it("retracts: the fact leaves recall, its history says when and by whom; a second retraction is 404", async () => {
    const { clock, mem, repo, alice, bob } = setup();
    const f = (await mem.upsertTriples(alice, repo, { triples: [triple("Cron", "runs", "nightly")], observed_at: t0 - 5000 })).facts[0]!;
    clock.advance(5000);
    expect(await mem.retract(bob, repo, f.fact_id)).toEqual({ fact_id: f.fact_id, valid_to: new Date(t0 + 5000).toISOString() });
    expect(await liveIds(mem, repo, alice, "Cron")).toEqual([]);
    expect((await mem.history(repo, f.fact_id)).versions).toEqual([
      expect.objectContaining({ status: "retracted", ended_by: bob.session_id, observed_at: new Date(t0 - 5000).toISOString(), replaced_by: [] }),
    ]);
    expect(await refusal(mem.retract(bob, repo, f.fact_id))).toEqual({ code: "not_found" });
    expect(await refusal(mem.history(repo, repoFactId(repo, "rn_x", "runs", "rn_y")))).toEqual({ code: "not_found" });
    // Writing it again makes it current again, with a new interval; the old one stays.
    clock.advance(5000);
    await mem.upsertTriples(alice, repo, { triples: [triple("Cron", "runs", "nightly")] });
    expect((await mem.history(repo, f.fact_id)).versions.map((v) => v.status)).toEqual(["retracted", "current"]);
  });

  it("history is bounded by its own limit and counts toward the fact quota; nothing is written past it", async () => {
    const { mem, repo, alice } = setup();
    const live = (await mem.upsertTriples(alice, repo, { triples: [triple("Full", "is", "live")] })).facts[0]!;
    const s = { id: repoNodeId(repo, "", "H"), name: "H", type: "" };
    const entry = (i: number): RepoFactVersion => {
      const o = { id: repoNodeId(repo, "", `v${i}`), name: `v${i}`, type: "" };
      return { fact_id: repoFactId(repo, s.id, "was", o.id), subject: s, predicate: "was", object: o, valid_from: t0, valid_to: t0 + 1, session_id: "ses-h", ended_by: "ses-h", ended: "retracted", replaced_by: [] };
    };
    const full = Array.from({ length: MAX_REPO_HISTORY }, (_, i) => entry(i));
    const meta = await h().loadMeta(repo);
    await h().upsertFacts(repo, [], { session_id: "ses-h" }, t0, { expectedRevision: meta.revision, end: [], doc: { history: full } });
    expect(repoHistoryOf((await h().loadMeta(repo)).doc)).toHaveLength(MAX_REPO_HISTORY);
    expect(await refusal(mem.retract(alice, repo, live.fact_id))).toEqual({ code: "limit_exceeded", limit: "repo_history" });
    expect(await liveIds(mem, repo, alice, "Full")).toEqual(["Full is live"]);
    // A stale revision is refused, and an entry naming another repository's records is invalid.
    const now = await h().loadMeta(repo);
    expect(await refusal(h().upsertFacts(repo, [], { session_id: null }, t0, { expectedRevision: now.revision - 1, end: [], doc: {} }))).toEqual({ code: "revision_conflict" });
    const other = rid("repo");
    const bad = { ...entry(0), fact_id: repoFactId(other, s.id, "was", entry(0).object.id) };
    expect(await refusal(h().upsertFacts(repo, [], { session_id: null }, t0, { expectedRevision: now.revision, end: [], doc: { history: [bad] } }))).toEqual({ code: "validation_failed" });
  });

  it("forgetting a session removes its history entries; entries it ended lose ended_by and replaced_by", async () => {
    const { clock, mem, repo, alice, bob } = setup();
    const a1 = (await mem.upsertTriples(alice, repo, { triples: [triple("Db", "engine", "mysql")] })).facts[0]!;
    clock.advance(1000);
    const b1 = (await mem.upsertTriples(bob, repo, { triples: [triple("Db", "engine", "postgres")], supersedes: [a1.fact_id] })).facts[0]!;
    clock.advance(1000);
    await mem.upsertTriples(alice, repo, { triples: [triple("Db", "engine", "cockroach")], supersedes: [b1.fact_id] });
    const receipt = await mem.forgetSession(repo, bob.session_id);
    expect(receipt.stores[0]).toMatchObject({ facts: 0, history: 1 });
    const hist = repoHistoryOf((await h().loadMeta(repo)).doc);
    expect(hist.map((v) => v.fact_id)).toEqual([a1.fact_id]);
    expect(hist[0]).toMatchObject({ ended_by: null, replaced_by: [] });
    expect(JSON.stringify(hist)).not.toContain(bob.session_id);
    expect(JSON.stringify(hist)).not.toContain("postgres");
    expect(await mem.forgetSession(repo, bob.session_id)).toMatchObject({ stores: [expect.objectContaining({ facts: 0, history: 0 })] });
  });

  it("re-ingest pruning keeps working beside history: stale code facts go, memory facts and the history stay", async () => {
    const { mem, repo, alice } = setup();
    const code = (s: string, o: string) => {
      const subject = { id: repoNodeId(repo, "code:file", s), name: s, type: "code:file" };
      const object = { id: repoNodeId(repo, "code:symbol", o), name: o, type: "code:symbol" };
      return { fact_id: repoFactId(repo, subject.id, "contains", object.id), subject, predicate: "contains", object, source: "ingest" };
    };
    await h().upsertFacts(repo, [code("a.ts", "A"), code("b.ts", "B")], { session_id: null }, t0);
    const m = (await mem.upsertTriples(alice, repo, { triples: [triple("A", "documented_in", "README")] })).facts[0]!;
    await mem.retract(alice, repo, m.fact_id);
    expect(await h().pruneSource(repo, "ingest", [code("a.ts", "A").fact_id], "code:")).toEqual({ edges: 1, nodes: 2 });
    expect(repoHistoryOf((await h().loadMeta(repo)).doc).map((v) => v.fact_id)).toEqual([m.fact_id]);
    expect((await h().factsMatching(repo, ["a.ts", "b.ts"], 10)).map((f) => f.subject.name)).toEqual(["a.ts"]);
  });

  it("export and import: a reviewed repository memory moves to another repository all or nothing, with validity, provenance and history", async () => {
    const { clock, mem, repo, alice, bob } = setup();
    await h().upsertFacts(
      repo,
      [{ fact_id: repoFactId(repo, repoNodeId(repo, "code.file", "a.ts"), "contains", repoNodeId(repo, "code.symbol", "A")), subject: { id: repoNodeId(repo, "code.file", "a.ts"), name: "a.ts", type: "code.file" }, predicate: "contains", object: { id: repoNodeId(repo, "code.symbol", "A"), name: "A", type: "code.symbol" }, source: "ingest" }],
      { session_id: null },
      t0,
    );
    const old = (await mem.upsertTriples(alice, repo, { triples: [triple("AuthService", "signs_with", "RS256")], source: "design review" })).facts[0]!;
    clock.advance(1000);
    await mem.upsertTriples(bob, repo, { triples: [triple("AuthService", "signs_with", "ES256")], single_valued: ["signs_with"], observed_at: t0 + 500 });
    const out = await mem.exportLines(repo);
    expect(out).toMatchObject({ facts: 1, history: 1, nodes: 3 });
    expect(out.lines).not.toContain("a.ts");
    const lines = out.lines.trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "header", format: "codesynapse.repository-memory/1", single_valued: ["signs_with"] });

    const target = rid("repo");
    const carol = identityOf(owner({ ns: target }));
    // All or nothing: one bad line anywhere refuses the whole file and writes nothing.
    const broken = [...lines.slice(0, -1), JSON.stringify({ kind: "history", fact_id: "x" })].join("\n");
    expect(await refusal(mem.importLines(carol, target, broken))).toEqual({ code: "validation_failed" });
    const dangling = [...lines, JSON.stringify({ kind: "fact", fact_id: "f9", subject_id: "nope", predicate: "p", object_id: "nope", valid_from: null, origin_session_id: null })].join("\n");
    expect(await refusal(mem.importLines(carol, target, dangling))).toEqual({ code: "validation_failed" });
    // A secret in a name is redacted on the way in, as for an upsert.
    const secret = lines.map((l) => l.replace('"design review"', '"key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"')).join("\n");
    expect((await h().factsPage(target, "", 10)).length).toBe(0);
    expect(await mem.importLines(carol, target, secret)).toEqual({ nodes: 3, facts: 1, history: 1 });
    const live = await h().factsPage(target, "", 10);
    expect(live.map((f) => `${f.subject.name} ${f.predicate} ${f.object.name}`)).toEqual(["AuthService signs_with ES256"]);
    expect(live[0]).toMatchObject({ origin_session_id: carol.session_id, valid_from: t0 + 1000, observed_at: t0 + 500 });
    const meta = await h().loadMeta(target);
    expect(meta.doc.single_valued).toEqual(["signs_with"]);
    const [v] = repoHistoryOf(meta.doc);
    expect(v).toMatchObject({ fact_id: repoFactId(target, repoNodeId(target, "", "AuthService"), "signs_with", repoNodeId(target, "", "RS256")), session_id: alice.session_id, ended_by: bob.session_id, valid_from: t0, valid_to: t0 + 1000 });
    expect(v!.source).toContain("[REDACTED");
    expect(v!.source).not.toContain("sk-proj-");
    expect(v!.fact_id).not.toBe(old.fact_id);
    // as_of on the imported repository sees the old fact.
    const past = await mem.recall(carol, target, { query: "AuthService", limit: 5, mode: "lexical", asOf: t0 + 1 });
    expect(past.results.map((r) => r.object.name)).toEqual(["RS256"]);
    // A repository that already holds memory refuses a second import.
    expect(await refusal(mem.importLines(carol, target, out.lines))).toEqual({ code: "conflict" });
    // Forgetting the importer erases what it imported.
    expect((await mem.forgetSession(target, carol.session_id)).stores[0]).toMatchObject({ facts: 1 });
  });
}

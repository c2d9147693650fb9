/**
 * An ingest on the relational store stages its graph under a generation in short fenced
 * transactions and publishes it with one row update in the fenced finish
 * (db/graph/postgres/generations.ts). On PostgreSQL and on PGlite (one connection):
 *   - while it stages, a job read answers (the job still `running`) and a graph reader sees the
 *     graph before or after, never part of it;
 *   - a writer that lost its lease stages nothing more and cannot publish; its staged rows are never
 *     visible and the next attempt deletes them; a published generation is compacted (no tag left).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import type { Config } from "../../core/config";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { silentLogger } from "../../core/log";
import { repoFactId, repoNodeId } from "../../core/memory/ids";
import type { DurableTriple, GraphStaging, RepositoryMemoryStore } from "../../core/memory/repository-store";
import type { MemoryServices } from "../../core/memory/services";
import { inTransaction } from "../../core/transaction";
import type { Db, Tx } from "../../db/schema";
import { sweepGenerations } from "../../db/graph/postgres/generations";
import { buildMemoryServices } from "../../main/memory";
import { finishJob } from "../../queues/sql/finishJob";
import { submitJob, type JobQueue } from "../../queues/submit";
import { fencedStep, type JobFence } from "../../workers/fenced-stores";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { writeGeneratedRepo } from "../support/fixture-repo";
import { startTestHost, type TestHost } from "../support/job-host";
import { enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);

/** Rows of the three staged tables still tagged with a generation (any, or `gen`). */
async function tagged(db: Db, gen?: string): Promise<number> {
  let n = 0;
  for (const t of ["repo_nodes", "repo_edges", "repo_ingest_files"]) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)} where gen is not null and (${gen ?? null}::text is null or gen = ${gen ?? null})`.execute(db);
    n += r.rows[0]!.n;
  }
  return n;
}

const idsOf = async (store: RepositoryMemoryStore, repoId: string) => new Set((await store.searchNodes(repoId, [], 100_000)).map((n) => n.id));

function triplesFor(repoId: string, names: string[]): DurableTriple[] {
  const file = { id: repoNodeId(repoId, "code:file", "src/x.ts"), name: "src/x.ts", type: "code:file" };
  return names.map((name) => {
    const fn = { id: repoNodeId(repoId, "code:function", name), name, type: "code:function" };
    return { fact_id: repoFactId(repoId, file.id, "contains", fn.id), subject: file, predicate: "contains", object: fn, source: "ingest" };
  });
}

await describeEachDatabase("staged ingest writes", (t) => {
  let th: TestHost;
  let memory: MemoryServices;
  let config: Config;
  let queue: JobQueue;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-staged-"));
    config = testContext(t().db, { env: { INGEST_ALLOWED_ROOTS: root } }).config;
    memory = buildMemoryServices(config, t().db, systemClock, silentLogger());
    th = await startTestHost(t(), jobKindHandlers({ config, stores: relationalStores(t().db), memory, queue: () => queue }), { stores: { repository: memory.repository.store }, pools: ["ingest"], leaseMs: 30_000 });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
  }, 120_000);
  afterAll(async () => {
    await th?.stop();
    memory?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("while an ingest stages its graph a job read answers (running) and readers see the old graph or the new one, never part", async () => {
    const db = t().db;
    const store = memory.repository.store;
    const e = await seedExecution(db, systemClock);
    const repoId = e.account.repoId;
    const ingest = async (dir: string) => {
      const job = await submitJob(queue, e.identity, e.principal, { kind: INGEST_KIND, params: { path: dir }, repo: repoId });
      return job.id;
    };
    const until = (id: string) =>
      waitFor(async () => {
        const r = await jobRow(db, id);
        return TERMINAL.has(r.status) ? r : undefined;
      }, 240_000, 50);

    await writeGeneratedRepo(path.join(root, "v1"), 20);
    expect((await until(await ingest(path.join(root, "v1")))).status).toBe("succeeded");
    const before = await idsOf(store, repoId);
    expect(before.size).toBeGreaterThan(20);

    await writeGeneratedRepo(path.join(root, "v2"), 120);
    const id = await ingest(path.join(root, "v2"));
    const seen: Array<Set<string>> = [];
    let answeredWhileStaged = 0;
    for (;;) {
      const staged = await tagged(db);
      const job = await jobRow(db, id);
      seen.push(await idsOf(store, repoId));
      if (staged > 0 && job.status === "running" && (await tagged(db)) > 0) answeredWhileStaged++;
      if (TERMINAL.has(job.status)) break;
    }
    expect((await jobRow(db, id)).status).toBe("succeeded");
    const after = await idsOf(store, repoId);
    expect(after.size).toBeGreaterThan(before.size);
    // The job was read, and answered `running`, while staged rows sat unpublished.
    expect(answeredWhileStaged).toBeGreaterThan(0);
    const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
    for (const s of seen) expect(same(s, before) || same(s, after), `a reader saw ${s.size} nodes: neither the old ${before.size} nor the new ${after.size}`).toBe(true);
    expect(seen.some((s) => same(s, before))).toBe(true);
    // Compaction after the commit clears every tag and frees the slot.
    await waitFor(async () => (await tagged(db)) === 0 && (await db.selectFrom("repo_graph_gens").select("id").where("repo_id", "=", repoId).execute()).length === 0, 30_000);
    expect(await idsOf(store, repoId)).toEqual(after);
  }, 300_000);

  it("a writer that lost its lease stages nothing more and cannot publish; its staged rows never show and the next attempt deletes them", async () => {
    const db = t().db;
    const store = memory.repository.store;
    const staging = store.staging as GraphStaging;
    expect(staging).toBeDefined();
    const e = await seedExecution(db, systemClock);
    const repoId = e.account.repoId;
    const row = await enqueueFor(db, systemClock, e, { kind: INGEST_KIND, pool: "ingest", params: { path: root } });
    const running = (token: string) => db.updateTable("jobs").set({ status: "running", lease_token: token, lease_expires_at: new Date(Date.now() + 60_000) }).where("id", "=", row.id).execute();
    const origin = { session_id: e.identity.session_id };
    const now = () => new Date();

    // Attempt A holds the lease and stages.
    await running("token-a");
    const a: JobFence = { jobId: row.id, token: "token-a" };
    const stepA = <T>(fn: (tx: Tx) => Promise<T>) => fencedStep(db, a, fn);
    const genA = await staging.open(repoId, a, stepA, now);
    await stepA((tx) => staging.stage(tx, repoId, genA, triplesFor(repoId, ["staleOnlyA", "staleOnlyB"]), origin, Date.now()));
    expect(await tagged(db, genA)).toBeGreaterThan(0);
    expect(await store.searchNodes(repoId, ["staleonly"], 10)).toEqual([]);

    // The lease moves to attempt B (A was stopped past its lease): A's next step is refused, A cannot publish.
    await running("token-b");
    await expect(stepA((tx) => staging.stage(tx, repoId, genA, triplesFor(repoId, ["staleLater"]), origin, Date.now()))).rejects.toMatchObject({ code: "conflict" });
    const publishedByA = await inTransaction(db, async (tx) => {
      if (await finishJob(tx, { id: row.id, token: "token-a", now: now(), result: null })) throw new Error("a stale finish went through");
      return staging.publish(tx, repoId, genA, a, { source: "ingest", gone: [], orphanTypePrefix: "code:" }, now());
    });
    expect(publishedByA.published).toBe(false);
    expect(await store.searchNodes(repoId, ["stale"], 10)).toEqual([]);

    // B opens: A's generation is deleted first; B stages and publishes in its fenced finish.
    const b: JobFence = { jobId: row.id, token: "token-b" };
    const stepB = <T>(fn: (tx: Tx) => Promise<T>) => fencedStep(db, b, fn);
    const genB = await staging.open(repoId, b, stepB, now);
    expect(genB).not.toBe(genA);
    expect(await tagged(db, genA)).toBe(0);
    await stepB((tx) => staging.stage(tx, repoId, genB, triplesFor(repoId, ["freshOnly"]), origin, Date.now()));
    expect(await store.searchNodes(repoId, ["freshonly"], 10)).toEqual([]);
    const publishedByB = await inTransaction(db, async (tx) => {
      if (!(await finishJob(tx, { id: row.id, token: "token-b", now: now(), result: null }))) throw new Error("the fenced finish failed");
      return staging.publish(tx, repoId, genB, b, { source: "ingest", gone: [], orphanTypePrefix: "code:" }, now());
    });
    expect(publishedByB.published).toBe(true);
    expect((await store.searchNodes(repoId, ["freshonly"], 10)).map((n) => n.name)).toEqual(["freshOnly"]);
    expect(await store.searchNodes(repoId, ["stale"], 10)).toEqual([]);
    expect(await staging.compact(genB)).toBe(true);
    expect(await tagged(db, genB)).toBe(0);
    expect((await store.searchNodes(repoId, ["freshonly"], 10)).map((n) => n.name)).toEqual(["freshOnly"]);
  }, 120_000);

  it("the cleanup sweep deletes the staged rows of an attempt that ended without publishing, and leaves a live attempt's alone", async () => {
    const db = t().db;
    const staging = memory.repository.store.staging as GraphStaging;
    const attempt = async (token: string) => {
      const e = await seedExecution(db, systemClock);
      const row = await enqueueFor(db, systemClock, e, { kind: INGEST_KIND, pool: "ingest", params: { path: root } });
      await db.updateTable("jobs").set({ status: "running", lease_token: token, lease_expires_at: new Date(Date.now() + 60_000) }).where("id", "=", row.id).execute();
      const fence: JobFence = { jobId: row.id, token };
      const step = <T>(fn: (tx: Tx) => Promise<T>) => fencedStep(db, fence, fn);
      const gen = await staging.open(e.account.repoId, fence, step, () => new Date());
      // More rows than one sweep batch, so the sweep must go on until none is left.
      const names = Array.from({ length: 30 }, (_, i) => `swept${i}`);
      await step((tx) => staging.stage(tx, e.account.repoId, gen, triplesFor(e.account.repoId, names), { session_id: e.identity.session_id }, Date.now()));
      return { row, gen };
    };
    const crashed = await attempt("token-crashed");
    const live = await attempt("token-live");
    // The first attempt's job ends (it crashed and ran out of attempts); nobody ingests that repository again.
    await db.updateTable("jobs").set({ status: "failed", lease_token: null, lease_expires_at: null }).where("id", "=", crashed.row.id).execute();
    for (let i = 0; i < 20 && (await sweepGenerations(db, 10)).done === false; i++);
    expect(await tagged(db, crashed.gen)).toBe(0);
    expect(await db.selectFrom("repo_graph_gens").select("id").where("id", "=", crashed.gen).execute()).toEqual([]);
    expect(await tagged(db, live.gen)).toBeGreaterThan(30);
    expect((await db.selectFrom("repo_graph_gens").select("id").where("id", "=", live.gen).execute()).length).toBe(1);
  }, 120_000);

  it("a plain write of a staged row makes it visible whatever becomes of the generation", async () => {
    const db = t().db;
    const store = memory.repository.store;
    const staging = store.staging as GraphStaging;
    const e = await seedExecution(db, systemClock);
    const repoId = e.account.repoId;
    const row = await enqueueFor(db, systemClock, e, { kind: INGEST_KIND, pool: "ingest", params: { path: root } });
    await db.updateTable("jobs").set({ status: "running", lease_token: "token-c", lease_expires_at: new Date(Date.now() + 60_000) }).where("id", "=", row.id).execute();
    const c: JobFence = { jobId: row.id, token: "token-c" };
    const step = <T>(fn: (tx: Tx) => Promise<T>) => fencedStep(db, c, fn);
    const gen = await staging.open(repoId, c, step, () => new Date());
    const both = triplesFor(repoId, ["sharedName"]);
    await step((tx) => staging.stage(tx, repoId, gen, both, { session_id: e.identity.session_id }, Date.now()));
    expect(await store.searchNodes(repoId, ["sharedname"], 10)).toEqual([]);
    await store.upsertFacts(repoId, both, { session_id: e.identity.session_id }, Date.now());
    expect((await store.searchNodes(repoId, ["sharedname"], 10)).map((n) => n.name)).toEqual(["sharedName"]);
    // The attempt dies (its job ends); the next open discards the generation, and the plain write stays.
    await db.updateTable("jobs").set({ status: "failed", lease_token: null, lease_expires_at: null }).where("id", "=", row.id).execute();
    const row2 = await enqueueFor(db, systemClock, e, { kind: INGEST_KIND, pool: "ingest", params: { path: root } });
    await db.updateTable("jobs").set({ status: "running", lease_token: "token-d", lease_expires_at: new Date(Date.now() + 60_000) }).where("id", "=", row2.id).execute();
    const d: JobFence = { jobId: row2.id, token: "token-d" };
    await staging.open(repoId, d, (fn) => fencedStep(db, d, fn), () => new Date());
    expect(await tagged(db, gen)).toBe(0);
    expect((await store.searchNodes(repoId, ["sharedname"], 10)).map((n) => n.name)).toEqual(["sharedName"]);
    expect((await store.factsTouching(repoId, [both[0]!.object.id], 10)).map((f) => f.fact_id)).toEqual([both[0]!.fact_id]);
  }, 120_000);
});

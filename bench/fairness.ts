/**
 * Fair share between organisations (`BENCH_ONLY=fairness npm run bench`, or `npx tsx bench/fairness.ts`).
 *
 * Organisation A floods the `ai` pool with BENCH_FAIR_FLOOD (2,000) no-op jobs from 16 parallel
 * submitters; then organisation B submits BENCH_FAIR_B (20) at once; then the pool starts (so B's
 * jobs wait behind A's whole backlog however fast this machine submits). Reported per dispatch
 * path (PostgreSQL, BullMQ) with fair share off (one FIFO queue) and on: B's time to completion
 * per job (pool start → its row's finished_at) at p50 and p95, and the drain throughput (all
 * jobs, pool start → last completion: every claim runs against the deep backlog). Each configuration runs
 * BENCH_FAIR_RUNS (2) times, interleaved off/on, each on a fresh schema and BullMQ prefix, with
 * every check of the jobs bench (authorize at submit, before work and before persist, fenced
 * finish). The machine is shared and noisy: compare off and on within one run of this bench.
 * Env: TEST_DATABASE_URL / DATABASE_URL, REDIS_URL, BENCH_CONCURRENCY (8), BENCH_FAIR_WORK_MS (0).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo } from "../core/accounts/accounts";
import { createApiKey } from "../core/accounts/api-keys";
import type { Principal } from "../core/authorize";
import { systemClock } from "../core/clock";
import { makeIdentity, type Identity } from "../core/execution/identity";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase } from "../db/database";
import type { Db } from "../db/schema";
import { JobMetrics } from "../queues/metrics";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import { submitJob } from "../queues/submit";
import { defineHandler, type JobHandler } from "../workers/handler";
import { startWorkers } from "../workers/host";
import { identityStore } from "../db/sql/identity/store";

const pgUrl = () => process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://codesynapse:codesynapse@127.0.0.1:5432/codesynapse_test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const FLOOD = Number(process.env.BENCH_FAIR_FLOOD ?? 2000);
const B_JOBS = Number(process.env.BENCH_FAIR_B ?? 20);
const RUNS = Number(process.env.BENCH_FAIR_RUNS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WORK_MS = Number(process.env.BENCH_FAIR_WORK_MS ?? 0);
const SUBMITTERS = 16;

export interface FairRun {
  dispatch: "postgres" | "bullmq";
  fair: boolean;
  bP50: number;
  bP95: number;
  jobsPerS: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function parallel(n: number, width: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < n) await fn(next++); }));
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** An organisation with a member, an API key, a repository and a registered session. */
async function tenant(db: Db, name: string): Promise<{ identity: Identity; principal: Principal; repoId: string }> {
  const store = identityStore(db);
  const { org_id: orgId } = await createOrg(store, { name });
  const { user_id: userId } = await createUser(store, { email: `${name}-${randomBytes(4).toString("hex")}@example.test` });
  await addMember(store, { orgId, userId, role: "member" });
  const key = await createApiKey(store, { orgId, userId });
  const { repo_id: repoId } = await createRepo(store, { orgId, name: `${name}-repo` });
  await grantRepo(store, { repoId, userId, level: "read" });
  const principal: Principal = { orgId, userId, apiKeyId: key.key_id, loginSessionId: null };
  const session = `${name}-${randomBytes(4).toString("hex")}`;
  await registerSession(store, systemClock, principal, session);
  return { identity: makeIdentity({ tenant_id: orgId, subject_id: userId, session_id: session, parent_session_id: session }), principal, repoId };
}

async function once(dispatch: "postgres" | "bullmq", fair: boolean): Promise<FairRun> {
  const schema = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = await openDatabase({ url: pgUrl(), schema, poolSize: CONCURRENCY + SUBMITTERS + 4 });
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  try {
    await migrateToLatest(database.db);
    const db = database.db;
    const a = await tenant(db, "flood");
    const b = await tenant(db, "small");
    const registry = new JobRegistry<JobHandler>().register(
      defineHandler({
        kind: "bench.noop", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "read", params: z.strictObject({ i: z.number() }),
        run: async () => {
          if (WORK_MS > 0) await sleep(WORK_MS);
          return { result: null };
        },
      }),
    );
    const { queue, bull } = createJobQueue({ db, identity: identityStore, clock: systemClock, logger: silentLogger(), registry, ...(dispatch === "bullmq" ? { redisUrl: REDIS_URL, bullPrefix: prefix } : {}) });
    const metrics = new JobMetrics();
    // The backlog first: A's flood, then B's jobs, all queued (and dispatched) before the pool starts, so
    // B's jobs sit behind A's whole backlog, whatever the submission rate on this machine.
    await parallel(FLOOD, SUBMITTERS, (i) => submitJob(queue, a.identity, a.principal, { kind: "bench.noop", params: { i }, repo: a.repoId }));
    await parallel(B_JOBS, B_JOBS, (i) => submitJob(queue, b.identity, b.principal, { kind: "bench.noop", params: { i }, repo: b.repoId }));
    const t0 = performance.now();
    const started = new Date();
    const host = await startWorkers({
      db, clock: systemClock, logger: silentLogger(), registry, dispatcher: queue.dispatcher, metrics, pools: ["ai"], concurrency: { ai: CONCURRENCY },
      identity: identityStore,
      ...(fair ? { fair: {} } : {}), ...(bull ? { bull } : {}), ...(database.listen ? { listen: database.listen } : {}),
    });
    const succeeded = async () =>
      (await metrics.registry.getSingleMetric("codesynapse_job_outcomes_total")!.get()).values.filter((v) => v.labels.outcome === "succeeded").reduce((s, v) => s + v.value, 0);
    const deadline = Date.now() + 300_000;
    while ((await succeeded()) < FLOOD + B_JOBS) {
      if (Date.now() > deadline) throw new Error("fairness bench timed out");
      await sleep(5);
    }
    const seconds = (performance.now() - t0) / 1000;
    const rows = await db.selectFrom("jobs").select(["created_at", "finished_at", "status"]).where("tenant_id", "=", b.identity.tenant_id).execute();
    if (rows.length !== B_JOBS || rows.some((r) => r.status !== "succeeded" || !r.finished_at)) throw new Error("fairness bench: B's jobs did not all succeed");
    const waits = rows.map((r) => r.finished_at!.getTime() - started.getTime());
    await host.stop();
    await queue.dispatcher.close();
    return { dispatch, fair, bP50: quantile(waits, 0.5), bP95: quantile(waits, 0.95), jobsPerS: (FLOOD + B_JOBS) / seconds };
  } finally {
    await database.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    if (dispatch === "bullmq") {
      const r = new Redis(REDIS_URL);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    }
  }
}

export async function benchFairness(): Promise<FairRun[]> {
  const out: FairRun[] = [];
  for (const dispatch of ["postgres", "bullmq"] as const) {
    for (let r = 0; r < RUNS; r++) for (const fair of [false, true]) out.push(await once(dispatch, fair));
  }
  return out;
}

export function printFairness(runs: readonly FairRun[]): void {
  console.log(`\nFair share: organisation A floods the ai pool with ${FLOOD} no-op jobs, then B submits ${B_JOBS}; concurrency ${CONCURRENCY}, ${RUNS} runs each, interleaved`);
  console.log("(the backlog is queued before the pool starts; B's wait: pool start to its job's completion; jobs/s: all jobs, pool start to last completion)\n");
  console.log(`${"dispatch".padEnd(12)} ${"fair share".padEnd(11)} ${"B p50 ms".padStart(9)} ${"B p95 ms".padStart(9)} ${"jobs/s".padStart(8)}`);
  for (const r of runs) console.log(`${r.dispatch.padEnd(12)} ${(r.fair ? "on" : "off").padEnd(11)} ${r.bP50.toFixed(0).padStart(9)} ${r.bP95.toFixed(0).padStart(9)} ${r.jobsPerS.toFixed(0).padStart(8)}`);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  console.log("\nOn ÷ off, per dispatch path (means over the runs):");
  for (const d of ["postgres", "bullmq"] as const) {
    const on = runs.filter((r) => r.dispatch === d && r.fair);
    const off = runs.filter((r) => r.dispatch === d && !r.fair);
    if (on.length === 0 || off.length === 0) continue;
    console.log(
      `  ${d.padEnd(10)} B p50 ${(mean(on.map((r) => r.bP50)) / mean(off.map((r) => r.bP50))).toFixed(3)} · B p95 ${(mean(on.map((r) => r.bP95)) / mean(off.map((r) => r.bP95))).toFixed(3)} · jobs/s ${(mean(on.map((r) => r.jobsPerS)) / mean(off.map((r) => r.jobsPerS))).toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printFairness(await benchFairness());
  process.exit(0);
}

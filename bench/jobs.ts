/**
 * End-to-end no-op job throughput (`npx tsx bench/jobs.ts`).
 *
 * CodeSynapse, per job: submitJob (authorize with the repository check + insert
 * + dispatch; submissions made together share one authorizeMany and one insert)
 * → claim (batched, and it carries authorize()'s read for the recheck before
 * work) → no-op handler → authorize again → lease-fenced finish (shared by jobs
 * finishing together: every job still rechecked, every row fenced by its own
 * token) — with the PostgreSQL-only dispatcher and with BullMQ. A pool runs
 * `concurrency` handlers and holds at most twice that many jobs (handlers plus
 * outcomes being written, workers/sources/slots.ts).
 *
 * Side by side, on the same servers: raw BullMQ (no rows, no checks), pg-boss
 * (CONCURRENCY polling workers, batches of 16 and of 250) and graphile-worker
 * (its defaults, and its performance page's batched settings) doing the same
 * no-op. Columns: seconds from the first enqueue to the last completion,
 * jobs/s, ratio to the first row, stmts/job (every statement any `pg` client
 * sent in that window, divided by the jobs; "-" without PostgreSQL) and "in
 * hand", the most jobs one process holds at once — the setting a polling
 * queue's rate grows with, so compare rows with it in view. Each system gets a
 * fresh schema (or key prefix). Env: BENCH_JOBS (2000), BENCH_CONCURRENCY (8),
 * BENCH_SUBMITTERS (16), TEST_DATABASE_URL / DATABASE_URL, REDIS_URL.
 */
import { randomBytes } from "node:crypto";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo } from "../core/accounts/accounts";
import { createApiKey } from "../core/accounts/api-keys";
import type { Principal } from "../core/authorize";
import { systemClock } from "../core/clock";
import { makeIdentity } from "../core/execution/identity";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase } from "../db/database";
import { JobMetrics } from "../queues/metrics";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import { submitJob } from "../queues/submit";
import { defineHandler, type JobHandler } from "../workers/handler";
import { startWorkers } from "../workers/host";

// Read when used: bench/run.ts sets TEST_DATABASE_URL after its imports.
const pgUrl = () => process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://codesynapse:codesynapse@127.0.0.1:5432/codesynapse_test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const N = Number(process.env.BENCH_JOBS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SUBMITTERS = Number(process.env.BENCH_SUBMITTERS ?? 16);

interface Result {
  name: string;
  seconds: number;
  checks: string;
  /** The most jobs one process holds at once (claimed or locked, not yet finished): the setting the rate depends on. */
  inHand: number;
  /** PostgreSQL statements sent (every pg client query, BEGIN/COMMIT included) per job; undefined when no PostgreSQL. */
  statementsPerJob?: number;
}

/**
 * Counts every statement any `pg` client sends (CodeSynapse, pg-boss and
 * graphile-worker all use the same `pg` module), by its first words.
 */
const statements = new Map<string, number>();
/** BENCH_VERBOSE: milliseconds from send to result, summed per statement (queueing in the pool excluded). */
const latency = new Map<string, number>();
let counting = false;
{
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (counting) {
      const q = args[0];
      const text = typeof q === "string" ? q : ((q as { text?: string } | null)?.text ?? "?");
      const key = text.replace(/\s+/g, " ").trim().slice(0, 60);
      statements.set(key, (statements.get(key) ?? 0) + 1);
      const out = original.apply(this, args);
      if (out instanceof Promise) {
        const t = performance.now();
        void out.then(
          () => latency.set(key, (latency.get(key) ?? 0) + performance.now() - t),
          () => undefined,
        );
      }
      return out;
    }
    return original.apply(this, args);
  };
}
function startCounting(): void {
  statements.clear();
  latency.clear();
  counting = true;
}
function stopCounting(jobs: number): number {
  counting = false;
  const total = [...statements.values()].reduce((a, b) => a + b, 0);
  if (process.env.BENCH_VERBOSE) {
    for (const [k, v] of [...statements.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.error(`  ${(v / jobs).toFixed(2).padStart(6)}/job ${((latency.get(k) ?? 0) / v).toFixed(2).padStart(6)} ms  ${k}`);
  }
  return total / jobs;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function parallel(n: number, width: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("benchmark timed out");
    await sleep(5);
  }
}

async function withSchema<T>(fn: (schema: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  try {
    return await fn(schema);
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}

async function codesynapse(dispatch: "postgres" | "bullmq"): Promise<Result> {
  return withSchema(async (schema) => {
    const database = await openDatabase({ url: pgUrl(), schema, poolSize: CONCURRENCY + SUBMITTERS + 4 });
    await migrateToLatest(database.db);
    const db = database.db;
    const clock = systemClock;
    const { org_id: orgId } = await createOrg(db, { name: "bench" });
    const { user_id: userId } = await createUser(db, { email: `bench-${schema}@example.test` });
    await addMember(db, { orgId, userId, role: "member" });
    const key = await createApiKey(db, { orgId, userId });
    const { repo_id: repoId } = await createRepo(db, { orgId, name: "bench-repo" });
    await grantRepo(db, { repoId, userId, level: "read" });
    const principal: Principal = { orgId, userId, apiKeyId: key.key_id, loginSessionId: null };
    await registerSession(db, clock, principal, `bench-${schema}`);
    const identity = makeIdentity({ tenant_id: orgId, subject_id: userId, session_id: `bench-${schema}`, parent_session_id: `bench-${schema}` });

    const registry = new JobRegistry<JobHandler>().register(
      defineHandler({ kind: "bench.noop", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "read", params: z.strictObject({ i: z.number() }), run: async () => ({ result: null }) }),
    );
    const prefix = `bench-${randomBytes(4).toString("hex")}`;
    const { queue, bull } = createJobQueue({ db, clock, logger: silentLogger(), registry, ...(dispatch === "bullmq" ? { redisUrl: REDIS_URL, bullPrefix: prefix } : {}) });
    const metrics = new JobMetrics();
    const host = await startWorkers({
      db, clock, logger: silentLogger(), registry, dispatcher: queue.dispatcher, metrics, pools: ["ai"], concurrency: { ai: CONCURRENCY },
      ...(bull ? { bull } : {}), ...(database.listen ? { listen: database.listen } : {}),
    });
    const succeeded = async () => {
      const m = (await metrics.registry.getSingleMetric("codesynapse_job_outcomes_total")!.get()).values;
      return m.filter((v) => v.labels.outcome === "succeeded").reduce((a, v) => a + v.value, 0);
    };
    await sleep(300);
    const cpu0 = process.cpuUsage();
    startCounting();
    const t0 = performance.now();
    await parallel(N, SUBMITTERS, (i) => submitJob(queue, identity, principal, { kind: "bench.noop", params: { i }, repo: repoId }));
    if (process.env.BENCH_VERBOSE) console.error(`enqueued after ${((performance.now() - t0) / 1000).toFixed(2)}s, ${await succeeded()} done`);
    await waitUntil(async () => (await succeeded()) >= N);
    const seconds = (performance.now() - t0) / 1000;
    const statementsPerJob = stopCounting(N);
    const cpu = process.cpuUsage(cpu0);
    if (process.env.BENCH_VERBOSE) console.error(`node cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)}s over ${seconds.toFixed(2)}s`);
    const left = await db.selectFrom("jobs").select((eb) => eb.fn.countAll<string>().as("n")).where("status", "!=", "succeeded").executeTakeFirstOrThrow();
    if (Number(left.n) !== 0) throw new Error(`codesynapse/${dispatch}: ${left.n} jobs not succeeded`);
    await host.stop();
    await queue.dispatcher.close();
    await database.close();
    if (bull) {
      const r = new Redis(REDIS_URL);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    }
    return { name: `CodeSynapse, ${dispatch === "bullmq" ? "BullMQ dispatch" : "PostgreSQL dispatch"}`, seconds, checks: "authorize ×3, lease-fenced persist", statementsPerJob, inHand: 2 * CONCURRENCY };
  });
}

async function rawBullmq(): Promise<Result> {
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
  const queue = new Queue("noop", { connection, prefix, defaultJobOptions: { removeOnComplete: true } });
  let done = 0;
  const worker = new Worker("noop", async () => void done++, { connection, prefix, concurrency: CONCURRENCY, removeOnComplete: { count: 0 } });
  await worker.waitUntilReady();
  const t0 = performance.now();
  await parallel(N, SUBMITTERS, (i) => queue.add("noop", { i }));
  await waitUntil(() => done >= N);
  const seconds = (performance.now() - t0) / 1000;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { name: "raw BullMQ", seconds, checks: "none (no rows)", inHand: CONCURRENCY };
}

/**
 * pg-boss polls: each of CONCURRENCY workers fetches up to `batch` jobs, runs them, and
 * waits out the rest of its polling interval (0.5 s, its minimum) — so its rate is about
 * CONCURRENCY × batch per 0.5 s and grows with the jobs it holds. Batch 16: 128 in hand;
 * batch 250: up to 2,000, the whole run at once.
 */
async function pgBoss(batch: number): Promise<Result> {
  const { PgBoss } = await import("pg-boss");
  return withSchema(async (schema) => {
    const boss = new PgBoss({ connectionString: pgUrl(), schema, max: CONCURRENCY + SUBMITTERS + 4, supervise: false, schedule: false });
    boss.on("error", () => undefined);
    await boss.start();
    await boss.createQueue("noop");
    let done = 0;
    for (let w = 0; w < CONCURRENCY; w++) {
      await boss.work("noop", { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        done += jobs.length;
      });
    }
    startCounting();
    const t0 = performance.now();
    await parallel(N, SUBMITTERS, (i) => boss.send("noop", { i }));
    await waitUntil(() => done >= N);
    const seconds = (performance.now() - t0) / 1000;
    const statementsPerJob = stopCounting(N);
    await boss.stop({ graceful: false });
    return { name: `pg-boss 12, batch ${batch}`, seconds, checks: "none", statementsPerJob, inHand: CONCURRENCY * batch };
  });
}

/**
 * graphile-worker with its defaults, or `batched`: the settings of its own performance
 * page (a local queue of 500 jobs fetched and locked at once, completions and failures
 * batched) — its fastest configuration, which holds up to 500 jobs per process.
 */
async function graphileWorker(batched = false): Promise<Result> {
  const { run, makeWorkerUtils, Logger } = await import("graphile-worker");
  const quietLogger = new Logger(() => () => undefined);
  return withSchema(async (schema) => {
    let done = 0;
    const runner = await run({
      connectionString: pgUrl(), schema, concurrency: CONCURRENCY, noHandleSignals: true, pollInterval: 500,
      maxPoolSize: CONCURRENCY + 4, taskList: { noop: async () => void done++ }, logger: quietLogger,
      ...(batched ? { preset: { worker: { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } } } : {}),
    });
    const utils = await makeWorkerUtils({ connectionString: pgUrl(), schema, logger: quietLogger });
    startCounting();
    const t0 = performance.now();
    await parallel(N, SUBMITTERS, (i) => utils.addJob("noop", { i }));
    await waitUntil(() => done >= N);
    const seconds = (performance.now() - t0) / 1000;
    const statementsPerJob = stopCounting(N);
    await utils.release();
    await runner.stop();
    return { name: batched ? "graphile-worker 0.18, batched" : "graphile-worker 0.18", seconds, checks: "none", statementsPerJob, inHand: batched ? 500 + CONCURRENCY : CONCURRENCY };
  });
}

export interface JobsBench {
  jobs: number;
  concurrency: number;
  submitters: number;
  results: Result[];
}

/** Runs the selected systems one after another (BENCH_JOBS_ONLY, or BENCH_ONLY when run on its own). */
export async function benchJobs(select: readonly string[] = (process.env.BENCH_JOBS_ONLY ?? "").split(",").filter(Boolean)): Promise<JobsBench> {
  const only = new Set(select);
  const suites: Array<[string, () => Promise<Result>]> = [
    ["cs-pg", () => codesynapse("postgres")],
    ["cs-bullmq", () => codesynapse("bullmq")],
    ["bullmq", rawBullmq],
    ["pg-boss", () => pgBoss(16)],
    ["pg-boss-wide", () => pgBoss(250)],
    ["graphile", () => graphileWorker()],
    ["graphile-batched", () => graphileWorker(true)],
  ];
  const results: Result[] = [];
  for (const [key, fn] of suites) {
    if (only.size > 0 && !only.has(key)) continue;
    try {
      results.push(await fn());
    } catch (err) {
      console.error(`${key}: ${(err as Error).message}`);
    }
  }
  return { jobs: N, concurrency: CONCURRENCY, submitters: SUBMITTERS, results };
}

export function printJobs(b: JobsBench): void {
  const base = b.results[0];
  console.log(`\nNo-op jobs, end to end: ${b.jobs} per system, concurrency ${b.concurrency}, ${b.submitters} parallel submitters`);
  console.log("(stmts/job: every statement a pg client sent between the first enqueue and the last completion, BEGIN/COMMIT included;");
  console.log(" in hand: the most jobs the process holds at once — CodeSynapse: `concurrency` handlers + as many outcomes being written)\n");
  console.log(`${"system".padEnd(38)} ${"seconds".padStart(8)} ${"jobs/s".padStart(8)} ${"vs first".padStart(9)} ${"stmts/job".padStart(9)} ${"in hand".padStart(8)}  checks`);
  for (const r of b.results) {
    const rate = b.jobs / r.seconds;
    const ratio = base ? rate / (b.jobs / base.seconds) : 1;
    console.log(
      `${r.name.padEnd(38)} ${r.seconds.toFixed(2).padStart(8)} ${rate.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(9)} ${(r.statementsPerJob === undefined ? "-" : r.statementsPerJob.toFixed(1)).padStart(9)} ${String(r.inHand).padStart(8)}  ${r.checks}`,
    );
  }
  // The target: CodeSynapse (every recheck) against each queue doing the same no-op, as ratios of jobs/s.
  const ours = b.results.filter((r) => r.name.startsWith("CodeSynapse"));
  const theirs = b.results.filter((r) => r.name.startsWith("pg-boss") || r.name.startsWith("graphile"));
  if (ours.length > 0 && theirs.length > 0) {
    console.log("\nCodeSynapse ÷ the others (jobs/s; ≥ 1.00 means at least their throughput):");
    for (const o of ours) console.log(`  ${o.name.padEnd(36)} ${theirs.map((t) => `${t.name}: ${(t.seconds / o.seconds).toFixed(2)}`).join(" · ")}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printJobs(await benchJobs((process.env.BENCH_ONLY ?? "").split(",").filter(Boolean)));
  // BullMQ and pg-boss keep timers and sockets in their modules after close: end here.
  process.exit(0);
}

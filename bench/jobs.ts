/**
 * End-to-end no-op job throughput (`npx tsx bench/jobs.ts`).
 *
 * CodeSynapse, per job: submitJob (authorize with the repository check + insert
 * + dispatch; submissions made together share one authorization read and one insert)
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
 * sent in that window, divided by the jobs; "-" without PostgreSQL), "in
 * hand" (the most jobs one process holds at once — the setting a polling
 * queue's rate grows with, so compare rows with it in view) and CPU seconds
 * per 1,000 jobs (this Node process, which runs submitters and workers of
 * every system; the PostgreSQL backends of the system's own connections; the
 * Redis server for the BullMQ rows). CodeSynapse always runs with every check
 * on. Then one-job latency: submit → recorded completion of one no-op job at
 * a time on an idle system, p50/p99 (BENCH_LATENCY_JOBS, 1000; 0 skips it).
 * Each system gets a fresh schema (or key prefix). Env: BENCH_JOBS (2000),
 * BENCH_CONCURRENCY (8), BENCH_SUBMITTERS (16), TEST_DATABASE_URL /
 * DATABASE_URL, REDIS_URL.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
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
import { Outcomes } from "./outcomes";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import { submitJob } from "../queues/submit";
import { defineHandler, type JobHandler } from "../workers/handler";
import { startWorkers } from "../workers/host";
import { PREFETCH_PER_SLOT } from "../workers/sources/slots";
import { identityStore } from "../db/sql/identity/store";

// Read when used: bench/run.ts sets TEST_DATABASE_URL after its imports.
const pgUrl = () => process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://codesynapse:codesynapse@127.0.0.1:5432/codesynapse_test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const N = Number(process.env.BENCH_JOBS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SUBMITTERS = Number(process.env.BENCH_SUBMITTERS ?? 16);
/** Milliseconds each CodeSynapse job's handler waits (0: a no-op): slow handlers exercise the slots instead of the statements. */
const HANDLER_MS = Number(process.env.BENCH_HANDLER_MS ?? 0);

interface Result {
  name: string;
  seconds: number;
  checks: string;
  /** The most jobs one process holds at once (claimed or locked, not yet finished): the setting the rate depends on. */
  inHand: number;
  /** PostgreSQL statements sent (every pg client query, BEGIN/COMMIT included) per job; undefined when no PostgreSQL. */
  statementsPerJob?: number;
  /** CPU seconds per 1,000 jobs: this Node process (submitters and workers), the PostgreSQL backends serving it, Redis (whole server). */
  cpu: Cpu;
}

interface Cpu {
  node: number;
  pg?: number;
  redis?: number;
}

/**
 * CPU spent on a run, per 1,000 jobs. Node: process.cpuUsage() of this process, which runs the
 * submitters and the workers of every system (none runs workers elsewhere). PostgreSQL: user +
 * system time (/proc/<pid>/stat) of the backends whose application_name is the run's tag — every
 * connection the system under test opened (not the bench's own admin connection). Redis: the
 * server's used_cpu_user + used_cpu_sys (INFO cpu) — the whole server, so anything else using it
 * counts too; only for the BullMQ rows.
 */
class CpuMeter {
  readonly #node0 = process.cpuUsage();
  #pg0 = new Map<number, number>();
  #redis0: number | undefined;
  constructor(readonly tag: string) {}
  static async start(tag: string, redis?: boolean): Promise<CpuMeter> {
    const m = new CpuMeter(tag);
    m.#pg0 = await backendTicks(tag);
    if (redis) m.#redis0 = await redisCpu();
    return m;
  }
  async stop(jobs: number): Promise<Cpu> {
    const node = process.cpuUsage(this.#node0);
    const per = 1000 / jobs;
    const out: Cpu = { node: ((node.user + node.system) / 1e6) * per };
    const pg1 = await backendTicks(this.tag);
    if (pg1.size > 0) {
      let ticks = 0;
      for (const [pid, t] of pg1) ticks += t - (this.#pg0.get(pid) ?? 0);
      out.pg = (ticks / CLK_TCK) * per;
    }
    if (this.#redis0 !== undefined) out.redis = ((await redisCpu()) - this.#redis0) * per;
    return out;
  }
}

const CLK_TCK = 100;

/** utime + stime of each backend serving connections tagged `tag` (0 for one already gone). */
async function backendTicks(tag: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: pgUrl() });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [tag]);
    const out = new Map<number, number>();
    for (const { pid } of r.rows) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        out.set(pid, Number(f[11]) + Number(f[12]));
      } catch {
        // not on this machine (a remote server), or gone: not counted
      }
    }
    return out;
  } finally {
    await c.end();
  }
}

async function redisCpu(): Promise<number> {
  const r = new Redis(REDIS_URL);
  try {
    const info = await r.info("cpu");
    const v = (k: string) => Number(new RegExp(`${k}:([0-9.]+)`).exec(info)?.[1] ?? 0);
    return v("used_cpu_user") + v("used_cpu_sys");
  } finally {
    await r.quit();
  }
}

/** The run's connection string: tagged with application_name so its backends can be found. */
function taggedUrl(tag: string): string {
  const u = new URL(pgUrl());
  u.searchParams.set("application_name", tag);
  return u.toString();
}

/**
 * Counts every statement any `pg` client sends (CodeSynapse, pg-boss and
 * graphile-worker all use the same `pg` module); with BENCH_VERBOSE also by
 * their first words and with their time. Only the count runs otherwise, so
 * that counting adds no allocation to the one-job latency it is taken with.
 */
const VERBOSE = !!process.env.BENCH_VERBOSE;
let sent = 0;
const statements = new Map<string, number>();
/** BENCH_VERBOSE: milliseconds from send to result, summed per statement (queueing in the pool excluded). */
const latency = new Map<string, number>();
let counting = false;
{
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (!counting) return original.apply(this, args);
    sent++;
    if (!VERBOSE) return original.apply(this, args);
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
  };
}
function startCounting(): void {
  sent = 0;
  statements.clear();
  latency.clear();
  counting = true;
}
function stopCounting(jobs: number): number {
  counting = false;
  if (VERBOSE) {
    for (const [k, v] of [...statements.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.error(`  ${(v / jobs).toFixed(2).padStart(6)}/job ${((latency.get(k) ?? 0) / v).toFixed(2).padStart(6)} ms  ${k}`);
  }
  return sent / jobs;
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

/** A system set up and idle: submit jobs, count completions, or time one job from submit to its recorded completion. */
export interface System {
  name: string;
  checks: string;
  inHand: number;
  /** The application_name of every PostgreSQL connection it opened (undefined: it has none). */
  tag?: string;
  redis: boolean;
  submit(i: number): Promise<unknown>;
  completed(): number;
  /** Jobs this process holds right now (claimed, not yet ended), when the system can tell; `inHand` is then the most seen. */
  holding?(): number;
  /** Submits one job and resolves once its completion is recorded (durable), as the system itself reports or stores it. */
  one(i: number): Promise<void>;
  close(): Promise<void>;
}


export async function codesynapse(dispatch: "postgres" | "bullmq", schema: string): Promise<System> {
  const tag = `bench_${schema}`;
  const database = await openDatabase({ url: taggedUrl(tag), schema, poolSize: CONCURRENCY + SUBMITTERS + 4 });
  await migrateToLatest(database.db);
  const db = database.db;
  const clock = systemClock;
  const store = identityStore(db);
  const { org_id: orgId } = await createOrg(store, { name: "bench" });
  const { user_id: userId } = await createUser(store, { email: `bench-${schema}@example.test` });
  await addMember(store, { orgId, userId, role: "member" });
  const key = await createApiKey(store, { orgId, userId });
  const { repo_id: repoId } = await createRepo(store, { orgId, name: "bench-repo" });
  await grantRepo(store, { repoId, userId, level: "read" });
  const principal: Principal = { orgId, userId, apiKeyId: key.key_id, loginSessionId: null };
  await registerSession(store, clock, principal, `bench-${schema}`);
  const identity = makeIdentity({ tenant_id: orgId, subject_id: userId, session_id: `bench-${schema}`, parent_session_id: `bench-${schema}` });

  const registry = new JobRegistry<JobHandler>().register(
    defineHandler({ kind: "bench.noop", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "read", params: z.strictObject({ i: z.number() }), run: async () => (HANDLER_MS > 0 ? (await sleep(HANDLER_MS), { result: null }) : { result: null }) }),
  );
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const { queue, bull } = createJobQueue({ db, identity: identityStore, clock, logger: silentLogger(), registry, ...(dispatch === "bullmq" ? { redisUrl: REDIS_URL, bullPrefix: prefix } : {}) });
  const metrics = new Outcomes();
  const host = await startWorkers({
    db, clock, logger: silentLogger(), registry, dispatcher: queue.dispatcher, metrics, pools: ["ai"], concurrency: { ai: CONCURRENCY },
    identity: identityStore,
    ...(bull ? { bull } : {}), ...(database.listen ? { listen: database.listen } : {}),
  });
  await sleep(300);
  const submit = (i: number) => submitJob(queue, identity, principal, { kind: "bench.noop", params: { i }, repo: repoId });
  return {
    name: `CodeSynapse, ${dispatch === "bullmq" ? "BullMQ dispatch" : "PostgreSQL dispatch"}`,
    checks: "every check on: authorize ×3, lease-fenced finish",
    inHand: 2 * CONCURRENCY + PREFETCH_PER_SLOT * CONCURRENCY,
    tag,
    redis: dispatch === "bullmq",
    submit,
    completed: () => metrics.succeeded,
    holding: () => host.runner.activeCount,
    async one(i) {
      const done = metrics.nextSucceeded();
      await submit(i);
      await done;
    },
    async close() {
      const left = await db.selectFrom("jobs").select((eb) => eb.fn.countAll<string>().as("n")).where("status", "!=", "succeeded").executeTakeFirstOrThrow();
      await host.stop();
      await queue.dispatcher.close();
      await database.close();
      if (bull) {
        const r = new Redis(REDIS_URL);
        const keys = await r.keys(`${prefix}:*`);
        if (keys.length) await r.del(...keys);
        await r.quit();
      }
      if (Number(left.n) !== 0) throw new Error(`codesynapse/${dispatch}: ${left.n} jobs not succeeded`);
    },
  };
}

async function rawBullmq(): Promise<System> {
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
  const queue = new Queue("noop", { connection, prefix, defaultJobOptions: { removeOnComplete: true } });
  let done = 0;
  const waiting = new Map<string, () => void>();
  const worker = new Worker("noop", async () => void done++, { connection, prefix, concurrency: CONCURRENCY, removeOnComplete: { count: 0 } });
  // Emitted after BullMQ has moved the job to completed in Redis.
  worker.on("completed", (job) => {
    waiting.get(job.id!)?.();
    waiting.delete(job.id!);
  });
  await worker.waitUntilReady();
  return {
    name: "raw BullMQ 6.7",
    checks: "none (no rows)",
    inHand: CONCURRENCY,
    redis: true,
    submit: (i) => queue.add("noop", { i }),
    completed: () => done,
    async one(i) {
      const id = `one-${i}`;
      const finished = new Promise<void>((r) => waiting.set(id, r));
      await queue.add("noop", { i }, { jobId: id });
      await finished;
    },
    async close() {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

/**
 * pg-boss polls: each of CONCURRENCY workers fetches up to `batch` jobs, runs them, and
 * waits out the rest of its polling interval (0.5 s, its minimum) — so its rate is about
 * CONCURRENCY × batch per 0.5 s and grows with the jobs it holds. Batch 16: 128 in hand;
 * batch 250: up to 2,000, the whole run at once. `notify`: its LISTEN/NOTIFY wake-up (pg-boss
 * 12, off by default), used for the one-job latency.
 */
async function pgBoss(batch: number, schema: string, notify = false): Promise<System> {
  const { PgBoss } = await import("pg-boss");
  const tag = `bench_${schema}`;
  const boss = new PgBoss({ connectionString: taggedUrl(tag), schema, max: CONCURRENCY + SUBMITTERS + 4, supervise: false, schedule: false, ...(notify ? { useListenNotify: true } : {}) });
  boss.on("error", () => undefined);
  boss.on("warning", () => undefined);
  await boss.start();
  await boss.createQueue("noop", notify ? { notify: true } : {});
  let done = 0;
  let handled: (() => void) | undefined;
  for (let w = 0; w < CONCURRENCY; w++) {
    await boss.work("noop", { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      done += jobs.length;
      // The handler's promise resolves; pg-boss then writes `completed` (waited for by polling the row).
      setImmediate(() => handled?.());
    });
  }
  return {
    name: `pg-boss 12, batch ${batch}${notify ? ", NOTIFY" : ""}`,
    checks: "none",
    inHand: CONCURRENCY * batch,
    tag,
    redis: false,
    submit: (i) => boss.send("noop", { i }),
    completed: () => done,
    async one(i) {
      const ran = new Promise<void>((r) => (handled = r));
      const id = await boss.send("noop", { i });
      await ran;
      while ((await boss.getJobById("noop", id!))?.state !== "completed") await sleep(1);
    },
    close: () => boss.stop({ graceful: false }),
  };
}

/**
 * graphile-worker with its defaults (it wakes on LISTEN/NOTIFY), or `batched`: the settings of
 * its own performance page (a local queue of 500 jobs fetched and locked at once, completions
 * and failures batched) — its fastest configuration, which holds up to 500 jobs per process.
 */
async function graphileWorker(schema: string, batched = false): Promise<System> {
  const { run, makeWorkerUtils, Logger } = await import("graphile-worker");
  const quietLogger = new Logger(() => () => undefined);
  const tag = `bench_${schema}`;
  let done = 0;
  const runner = await run({
    connectionString: taggedUrl(tag), schema, concurrency: CONCURRENCY, noHandleSignals: true, pollInterval: 500,
    maxPoolSize: CONCURRENCY + 4, taskList: { noop: async () => void done++ }, logger: quietLogger,
    ...(batched ? { preset: { worker: { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } } } : {}),
  });
  const utils = await makeWorkerUtils({ connectionString: taggedUrl(tag), schema, logger: quietLogger });
  let handled: (() => void) | undefined;
  runner.events.on("job:complete", () => setImmediate(() => handled?.()));
  return {
    name: batched ? "graphile-worker 0.18, batched" : "graphile-worker 0.18",
    checks: "none",
    inHand: batched ? 500 + CONCURRENCY : CONCURRENCY,
    tag,
    redis: false,
    submit: (i) => utils.addJob("noop", { i }),
    completed: () => done,
    async one(i) {
      const ran = new Promise<void>((r) => (handled = r));
      const job = await utils.addJob("noop", { i });
      await ran;
      // A completed job's row is deleted: wait for that.
      await utils.withPgClient(async (c) => {
        while ((await c.query(`select 1 from ${schema}._private_jobs where id = $1`, [job.id])).rowCount) await sleep(1);
      });
    },
    async close() {
      await utils.release();
      await runner.stop();
    },
  };
}

/**
 * Jobs each system runs, the same way, before the measured ones (BENCH_WARMUP_JOBS): without
 * it the first system in the process pays for V8 optimising the code the later ones share
 * (`pg`, and CodeSynapse's own runner and claim for the second dispatch path).
 */
const WARMUP_JOBS = Number(process.env.BENCH_WARMUP_JOBS ?? 1000);

async function throughput(sys: System): Promise<Result> {
  if (WARMUP_JOBS > 0) {
    const warm = sys.completed();
    await parallel(WARMUP_JOBS, SUBMITTERS, (i) => sys.submit(-1 - i));
    await waitUntil(() => sys.completed() - warm >= WARMUP_JOBS);
  }
  const cpu = await CpuMeter.start(sys.tag ?? "-", sys.redis);
  startCounting();
  const t0 = performance.now();
  const before = sys.completed();
  await parallel(N, SUBMITTERS, (i) => sys.submit(i));
  if (process.env.BENCH_VERBOSE) console.error(`enqueued after ${((performance.now() - t0) / 1000).toFixed(2)}s, ${sys.completed() - before} done`);
  let most = 0;
  await waitUntil(() => {
    if (sys.holding) most = Math.max(most, sys.holding());
    return sys.completed() - before >= N;
  });
  const seconds = (performance.now() - t0) / 1000;
  const statementsPerJob = sys.tag ? stopCounting(N) : (stopCounting(N), undefined);
  const used = await cpu.stop(N);
  return { name: sys.name, seconds, checks: sys.checks, inHand: sys.holding ? most : sys.inHand, cpu: used, ...(statementsPerJob !== undefined ? { statementsPerJob } : {}) };
}

export interface Latency {
  name: string;
  jobs: number;
  p50: number;
  p99: number;
  max: number;
  /** PostgreSQL statements per job in the measured loop (every pg client's; undefined without PostgreSQL). */
  statementsPerJob?: number;
}

/**
 * Jobs run one at a time before the measured ones (BENCH_LATENCY_WARMUP): a long-running server
 * is measured, not its first seconds — while V8 still compiles and optimises the path, young
 * collections promote several MB each and pause 10-15 ms, which would set the p99 of whichever
 * system runs first in this process (the later ones reuse the warmed `pg` code).
 */
const LATENCY_WARMUP = Number(process.env.BENCH_LATENCY_WARMUP ?? 2000);

/** Submit → recorded completion of one no-op job at a time on an otherwise idle system (after the warm-up). */
export async function latencyOf(sys: System, jobs: number): Promise<Latency> {
  for (let i = 0; i < LATENCY_WARMUP; i++) await sys.one(-1 - i);
  const ms: number[] = [];
  startCounting();
  for (let i = 0; i < jobs; i++) {
    const t = performance.now();
    await sys.one(i);
    ms.push(performance.now() - t);
  }
  const statementsPerJob = stopCounting(jobs);
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  return { name: sys.name, jobs, p50: at(0.5), p99: at(0.99), max: ms[ms.length - 1]!, ...(sys.tag ? { statementsPerJob } : {}) };
}

async function withSystem<T>(make: (schema: string) => Promise<System>, fn: (s: System) => Promise<T>): Promise<T> {
  return withSchema(async (schema) => {
    const sys = await make(schema);
    try {
      return await fn(sys);
    } finally {
      await sys.close();
    }
  });
}

export interface JobsBench {
  jobs: number;
  concurrency: number;
  submitters: number;
  results: Result[];
  latencyJobs: number;
  latencies: Latency[];
}

const LATENCY_JOBS = Number(process.env.BENCH_LATENCY_JOBS ?? 1000);

/** Runs the selected systems one after another (BENCH_JOBS_ONLY, or BENCH_ONLY when run on its own). */
export async function benchJobs(select: readonly string[] = (process.env.BENCH_JOBS_ONLY ?? "").split(",").filter(Boolean)): Promise<JobsBench> {
  const only = new Set(select);
  const suites: Array<[string, (schema: string) => Promise<System>]> = [
    ["cs-pg", (s) => codesynapse("postgres", s)],
    ["cs-bullmq", (s) => codesynapse("bullmq", s)],
    ["bullmq", () => rawBullmq()],
    ["pg-boss", (s) => pgBoss(16, s)],
    ["pg-boss-wide", (s) => pgBoss(250, s)],
    ["graphile", (s) => graphileWorker(s)],
    ["graphile-batched", (s) => graphileWorker(s, true)],
  ];
  // One-job latency: each system in the configuration that wakes fastest when idle (pg-boss with its NOTIFY on).
  const latencySuites: Array<[string, (schema: string) => Promise<System>]> = [
    ["cs-pg", (s) => codesynapse("postgres", s)],
    ["cs-bullmq", (s) => codesynapse("bullmq", s)],
    ["bullmq", () => rawBullmq()],
    ["pg-boss", (s) => pgBoss(16, s, true)],
    ["graphile", (s) => graphileWorker(s)],
  ];
  const results: Result[] = [];
  for (const [key, make] of suites) {
    if (only.size > 0 && !only.has(key)) continue;
    try {
      results.push(await withSystem(make, throughput));
    } catch (err) {
      console.error(`${key}: ${(err as Error).message}`);
    }
  }
  const latencies: Latency[] = [];
  if (LATENCY_JOBS > 0) {
    for (const [key, make] of latencySuites) {
      if (only.size > 0 && !only.has(key)) continue;
      try {
        latencies.push(await withSystem(make, (s) => latencyOf(s, LATENCY_JOBS)));
      } catch (err) {
        console.error(`${key} latency: ${(err as Error).message}`);
      }
    }
  }
  return { jobs: N, concurrency: CONCURRENCY, submitters: SUBMITTERS, results, latencyJobs: LATENCY_JOBS, latencies };
}

const f2 = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));

export function printJobs(b: JobsBench): void {
  const base = b.results[0];
  console.log(`\nNo-op jobs, end to end: ${b.jobs} per system after ${WARMUP_JOBS} unmeasured, concurrency ${b.concurrency}, ${b.submitters} parallel submitters`);
  console.log("CodeSynapse runs with every check on (its default and only mode): authorize at submit, before work and before persist, lease-fenced finish.");
  console.log("(stmts/job: every statement a pg client sent between the first enqueue and the last completion, BEGIN/COMMIT included;");
  console.log(" in hand: the most jobs the process holds at once — CodeSynapse: the most it was seen holding (sampled every 5 ms; bound:");
  console.log(" `concurrency` handlers + as many outcomes being written + up to 8 × `concurrency` claimed ahead while a backlog lasts);");
  console.log(" CPU s/1k jobs: node = this process (submitters and workers of every system run in it), pg = the PostgreSQL backends of the");
  console.log(" system's own connections (/proc), redis = the whole Redis server (INFO cpu; BullMQ rows only, includes anything else using it))\n");
  console.log(
    `${"system".padEnd(38)} ${"seconds".padStart(8)} ${"jobs/s".padStart(8)} ${"vs first".padStart(9)} ${"stmts/job".padStart(9)} ${"in hand".padStart(8)} ${"cpu node".padStart(9)} ${"cpu pg".padStart(7)} ${"cpu redis".padStart(9)}  checks`,
  );
  for (const r of b.results) {
    const rate = b.jobs / r.seconds;
    const ratio = base ? rate / (b.jobs / base.seconds) : 1;
    console.log(
      `${r.name.padEnd(38)} ${r.seconds.toFixed(2).padStart(8)} ${rate.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(9)} ${(r.statementsPerJob === undefined ? "-" : r.statementsPerJob.toFixed(1)).padStart(9)} ${String(r.inHand).padStart(8)} ${f2(r.cpu.node).padStart(9)} ${f2(r.cpu.pg).padStart(7)} ${f2(r.cpu.redis).padStart(9)}  ${r.checks}`,
    );
  }
  // The targets, as ratios of jobs/s inside this run: PostgreSQL dispatch against every PostgreSQL peer, BullMQ dispatch against raw BullMQ.
  const pgDispatch = b.results.find((r) => r.name.endsWith("PostgreSQL dispatch"));
  const bullDispatch = b.results.find((r) => r.name.endsWith("BullMQ dispatch"));
  const pgPeers = b.results.filter((r) => r.name.startsWith("pg-boss") || r.name.startsWith("graphile"));
  const raw = b.results.find((r) => r.name.startsWith("raw BullMQ"));
  if (pgDispatch && pgPeers.length > 0) {
    console.log("\nCodeSynapse, PostgreSQL dispatch ÷ each PostgreSQL peer (jobs/s; target ≥ 1.00):");
    for (const t of pgPeers) console.log(`  ${t.name.padEnd(36)} ${(t.seconds / pgDispatch.seconds).toFixed(2)}${t.seconds / pgDispatch.seconds >= 1 ? "" : "  (below)"}`);
  }
  if (bullDispatch && pgDispatch) {
    const r = pgDispatch.seconds / bullDispatch.seconds;
    console.log(`\nCodeSynapse, BullMQ dispatch ÷ PostgreSQL dispatch (jobs/s; target ≥ 1.00): ${r.toFixed(2)}${r >= 1 ? "" : "  (below)"}`);
  }
  if (bullDispatch && pgPeers.length > 0) {
    console.log("CodeSynapse, BullMQ dispatch ÷ each PostgreSQL peer (jobs/s; target ≥ 1.00):");
    for (const t of pgPeers) console.log(`  ${t.name.padEnd(36)} ${(t.seconds / bullDispatch.seconds).toFixed(2)}${t.seconds / bullDispatch.seconds >= 1 ? "" : "  (below)"}`);
  }
  if (bullDispatch && raw) console.log(`CodeSynapse, BullMQ dispatch ÷ raw BullMQ (jobs/s; a durable row per job, no target): ${(raw.seconds / bullDispatch.seconds).toFixed(2)}`);
  if (b.latencies.length > 0) {
    console.log(`\nOne no-op job at a time on an idle system, submit → completion recorded (${b.latencyJobs} jobs each, after ${LATENCY_WARMUP} warm-up; ms):`);
    console.log("(CodeSynapse: the runner's outcome written; raw BullMQ: its `completed` event, after the Redis write; pg-boss: the row reads");
    console.log(" `completed`; graphile-worker: the row is deleted — the last two polled every 1 ms after the handler returned)\n");
    console.log(`${"system".padEnd(38)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)} ${"stmts/job".padStart(10)}`);
    for (const l of b.latencies) {
      const stmts = l.statementsPerJob === undefined ? "-" : l.statementsPerJob.toFixed(1);
      console.log(`${l.name.padEnd(38)} ${l.p50.toFixed(1).padStart(8)} ${l.p99.toFixed(1).padStart(8)} ${l.max.toFixed(1).padStart(8)} ${stmts.padStart(10)}`);
    }
    const graphile = b.latencies.find((l) => l.name.startsWith("graphile"));
    const ours = b.latencies.filter((l) => l.name.startsWith("CodeSynapse"));
    if (graphile && ours.length > 0) {
      console.log("\nOne-job p99 ÷ graphile-worker's (target ≤ 1.00):");
      for (const l of ours) console.log(`  ${l.name.padEnd(36)} ${(l.p99 / graphile.p99).toFixed(2)}${l.p99 <= graphile.p99 ? "" : "  (above)"}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printJobs(await benchJobs((process.env.BENCH_ONLY ?? "").split(",").filter(Boolean)));
  // BullMQ and pg-boss keep timers and sockets in their modules after close: end here.
  process.exit(0);
}

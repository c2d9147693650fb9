/**
 * Benchmark: the mixed runtime workload against the real processes. SESSIONS registered sessions
 * (threads of several users of one organisation, one repository) each run a loop of requests over
 * keep-alive connections — identity, recall, read and upsert of the thread's session memory, job
 * submit (an AI question, the local provider), poll and list — against `codesynapse serve` plus
 * WORKERS `codesynapse worker --pools ai` processes on PostgreSQL (a database of its own on the
 * server of TEST_DATABASE_URL / DATABASE_URL, dropped at the end), or one `codesynapse start` on
 * the embedded default (PGlite: one process holds the data directory) without it.
 *
 * Per operation and in total: requests/s, p50, p99 and the non-2xx count, over MEASURE seconds
 * after WARMUP seconds. The servers log at info to /dev/null (the request log's cost is counted);
 * EMBEDDER=hash (no model load); job dispatch on PostgreSQL (no REDIS_URL: the service variables
 * of the bench's own environment are not passed on); every check stays on.
 *
 * BENCH_BASELINE=<checkout> (with its node_modules) measures that checkout's servers too, with
 * the same load, the same seeded rows and a fresh database of its own; the runs alternate
 * (baseline first) for BENCH_MIXED_ROUNDS rounds and the table prints each run, so before/after
 * come from one invocation. The seed runs this tree's migrations, so the baseline must have the
 * same ones (its server refuses a database with migrations it does not know); for an older release,
 * copy this file into its checkout and run it there, then here, back to back. Env: BENCH_MIXED_SECONDS (60), BENCH_MIXED_WARMUP (5),
 * BENCH_MIXED_SESSIONS (200), BENCH_MIXED_USERS (8), BENCH_MIXED_WORKERS (3),
 * BENCH_MIXED_STORE (postgres when a URL is set, else pglite), BENCH_MIXED_ROUNDS (1),
 * BENCH_MIXED_PROF_DIR (the API process writes a --cpu-prof profile there; warm-up and start-up included).
 *
 * Run: BENCH_ONLY=mixed npm run bench   (or: npx tsx bench/mixed.ts)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { systemClock } from "../core/clock";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase } from "../db/database";
import { seedAccount, type Account } from "../test/support/fixtures";
import { identityStore } from "../db/sql/identity/store";

const MEASURE_S = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
const WARMUP_S = Number(process.env.BENCH_MIXED_WARMUP ?? 5);
const SESSIONS = Number(process.env.BENCH_MIXED_SESSIONS ?? 200);
const USERS = Number(process.env.BENCH_MIXED_USERS ?? 8);
const WORKERS = Number(process.env.BENCH_MIXED_WORKERS ?? 3);
const ROUNDS = Number(process.env.BENCH_MIXED_ROUNDS ?? 1);
const HERE = path.resolve(import.meta.dirname, "..");

export const MIXED_OPS = ["identity", "recall", "read", "upsert", "submit", "poll", "list"] as const;
type Op = (typeof MIXED_OPS)[number];
/** One session's cycle of operations: the weights of the mix (identity 3, recall/read/upsert/poll 2, submit/list 1). */
const CYCLE: Op[] = ["identity", "upsert", "read", "poll", "recall", "identity", "submit", "list", "upsert", "recall", "identity", "read", "poll"];

export interface OpStats {
  op: Op | "total";
  count: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface MixedRun {
  checkout: string;
  store: "postgres" | "pglite";
  seconds: number;
  stats: OpStats[];
  /** AI jobs that finished (succeeded) during the whole run, warm-up included. */
  jobsSucceeded: number;
}

interface Seeded {
  accounts: Account[];
  sessions: Array<{ account: Account; id: string }>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A database of its own: a fresh PostgreSQL database, or a PGlite data directory. */
interface Target {
  env: Record<string, string>;
  open(): ReturnType<typeof openDatabase>;
  drop(): Promise<void>;
}

async function newTarget(store: "postgres" | "pglite"): Promise<Target> {
  if (store === "pglite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cs-bench-mixed-"));
    return { env: { CODESYNAPSE_DATA_DIR: dir }, open: () => openDatabase({ dataDir: dir }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error("mixed bench: no TEST_DATABASE_URL for the PostgreSQL store");
  const name = `cs_bench_mixed_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  return {
    env: { DATABASE_URL: dbUrl },
    open: () => openDatabase({ url: dbUrl, poolSize: 4 }),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** One organisation and repository, USERS users with a key each, SESSIONS sessions spread over them. */
async function seed(t: Target): Promise<Seeded> {
  const d = await t.open();
  try {
    await migrateToLatest(d.db);
    const first = await seedAccount(d.db);
    const accounts = [first];
    for (let i = 1; i < USERS; i++) accounts.push(await seedAccount(d.db, { orgId: first.orgId, repoId: first.repoId }));
    const sessions: Seeded["sessions"] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const account = accounts[i % accounts.length]!;
      const id = `mixed-${i}-${randomBytes(6).toString("hex")}`;
      await registerSession(identityStore(d.db), systemClock, { orgId: account.orgId, userId: account.userId, apiKeyId: account.keyId, loginSessionId: null }, id);
      sessions.push({ account, id });
    }
    return { accounts, sessions };
  } finally {
    await d.close();
  }
}

async function succeededJobs(t: Target): Promise<number> {
  const d = await t.open();
  try {
    const r = await d.db.selectFrom("jobs").select((e) => e.fn.countAll<string>().as("n")).where("status", "=", "succeeded").executeTakeFirstOrThrow();
    return Number(r.n);
  } finally {
    await d.close();
  }
}

/** This environment without the service variables (test/services' .env.services): the bench sets the stores itself. */
function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^(DATABASE_URL|TEST_DATABASE_URL|REDIS_|NEO4J_|MILVUS_|HUGEGRAPH_|PROMTOOL|MEMORY_STORE|VECTOR_INDEX|OTEL_)/.test(k)) delete env[k];
  return env;
}

/** BENCH_MIXED_PROF_DIR: the API process (serve, or start) writes a V8 CPU profile there when it stops. */
function launch(checkout: string, args: string[], env: Record<string, string>, profile = false): ChildProcess {
  const dir = process.env.BENCH_MIXED_PROF_DIR;
  const prof = profile && dir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(dir)}`] : [];
  const child = spawn(process.execPath, [...prof, path.join(checkout, "bin", "codesynapse.js"), ...args], {
    cwd: checkout,
    env: { ...serverEnv(), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return child;
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server not ready in 120 s");
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 15_000).unref();
        }),
    ),
  );
}

interface Answer {
  status: number;
  body: string;
}

function request(agent: http.Agent, base: URL, method: string, p: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: base.hostname, port: base.port, method, path: p, headers: data === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(data)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/** Every session runs its cycle until the end; latencies are kept from the end of the warm-up on. */
async function drive(baseUrl: string, seeded: Seeded): Promise<OpStats[]> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: SESSIONS });
  const lat = new Map<Op, number[]>(MIXED_OPS.map((o) => [o, []]));
  const bad = new Map<Op, number>(MIXED_OPS.map((o) => [o, 0]));
  const t0 = performance.now();
  const measureFrom = t0 + WARMUP_S * 1000;
  const end = measureFrom + MEASURE_S * 1000;
  const repo = seeded.accounts[0]!.repoId;
  const sm = `/api/v1/repos/${repo}/session-memory`;
  await Promise.all(
    seeded.sessions.map(async (s, n) => {
      const headers = { authorization: `Bearer ${s.account.apiKey}`, "x-codesynapse-session": s.id, "x-codesynapse-parent-session": s.id };
      let lastJob: string | undefined;
      let k = n;
      for (let step = n % CYCLE.length; performance.now() < end; step = (step + 1) % CYCLE.length) {
        let op = CYCLE[step]!;
        if (op === "poll" && lastJob === undefined) op = "submit";
        k = (k + 1) % 32;
        const started = performance.now();
        let a: Answer;
        switch (op) {
          case "identity":
            a = await request(agent, base, "GET", "/api/v1/execution/identity", headers);
            break;
          case "recall":
            a = await request(agent, base, "POST", `${sm}/recall`, headers, { query: `who reviewed Service${k}`, limit: 8 });
            break;
          case "read":
            a = await request(agent, base, "GET", `${sm}?limit=50`, headers);
            break;
          case "upsert":
            a = await request(agent, base, "POST", sm, headers, { triples: [{ subject: `Service${k}`, predicate: "reviewed_by", object: `Person${k % 7}` }] });
            break;
          case "submit":
            a = await request(agent, base, "POST", `/api/v1/repos/${repo}/ai-tasks`, headers, { task: "question", question: `Who reviewed Service${k}?` });
            if (a.status === 202) lastJob = (JSON.parse(a.body) as { job_id: string }).job_id;
            break;
          case "poll":
            a = await request(agent, base, "GET", `/api/v1/jobs/${lastJob}`, headers);
            break;
          case "list":
            a = await request(agent, base, "GET", "/api/v1/jobs?limit=20", headers);
            break;
        }
        const done = performance.now();
        if (started < measureFrom || done > end) continue;
        lat.get(op)!.push(done - started);
        if (a.status < 200 || a.status >= 300) bad.set(op, bad.get(op)! + 1);
      }
    }),
  );
  agent.destroy();
  const stats: OpStats[] = [];
  const all: number[] = [];
  for (const op of MIXED_OPS) {
    const xs = lat.get(op)!.sort((x, y) => x - y);
    all.push(...xs);
    stats.push({ op, count: xs.length, rps: xs.length / MEASURE_S, p50Ms: quantile(xs, 0.5), p99Ms: quantile(xs, 0.99), non2xx: bad.get(op)! });
  }
  all.sort((x, y) => x - y);
  stats.push({ op: "total", count: all.length, rps: all.length / MEASURE_S, p50Ms: quantile(all, 0.5), p99Ms: quantile(all, 0.99), non2xx: [...bad.values()].reduce((s, v) => s + v, 0) });
  return stats;
}

async function runOnce(checkout: string, store: "postgres" | "pglite"): Promise<MixedRun> {
  const t = await newTarget(store);
  const children: ChildProcess[] = [];
  try {
    const seeded = await seed(t);
    const port = await freePort();
    const common = { ...t.env, EMBEDDER: "hash", LOG_LEVEL: "info", HOST: "127.0.0.1", CODESYNAPSE_RUN: "sources" };
    if (store === "pglite") {
      children.push(launch(checkout, ["start"], { ...common, PORT: String(port), WORKER_POOLS: "ai,cleanup" }, true));
    } else {
      children.push(launch(checkout, ["serve"], { ...common, PORT: String(port) }, true));
      for (let i = 0; i < WORKERS; i++) children.push(launch(checkout, ["worker", "--pools", "ai"], { ...common, METRICS_PORT: "0" }));
    }
    const base = `http://127.0.0.1:${port}`;
    await waitReady(base, children[0]!);
    const stats = await drive(base, seeded);
    await stop(children);
    children.length = 0;
    return { checkout, store, seconds: MEASURE_S, stats, jobsSucceeded: await succeededJobs(t) };
  } finally {
    await stop(children);
    await t.drop();
  }
}

export async function benchMixed(): Promise<MixedRun[]> {
  const store = (process.env.BENCH_MIXED_STORE ?? (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ? "postgres" : "pglite")) as "postgres" | "pglite";
  const checkouts = process.env.BENCH_BASELINE ? [path.resolve(process.env.BENCH_BASELINE), HERE] : [HERE];
  const runs: MixedRun[] = [];
  for (let round = 0; round < ROUNDS; round++) for (const c of checkouts) runs.push(await runOnce(c, store));
  return runs;
}

export function printMixed(runs: MixedRun[]): void {
  const first = runs[0];
  if (!first) return;
  const setup = first.store === "postgres" ? `serve + ${WORKERS} workers, PostgreSQL` : "start (one process), PGlite";
  console.log(`\n## mixed workload (${SESSIONS} sessions, ${setup}, ${MEASURE_S}s after ${WARMUP_S}s warm-up)`);
  for (const r of runs) {
    console.log(`\n${r.checkout === HERE ? "this checkout" : `baseline ${r.checkout}`} — AI jobs succeeded: ${r.jobsSucceeded}`);
    console.log("operation | requests |  req/s | p50 ms | p99 ms | non-2xx");
    for (const s of r.stats) {
      console.log(`${s.op.padEnd(9)} | ${String(s.count).padStart(8)} | ${s.rps.toFixed(1).padStart(6)} | ${s.p50Ms.toFixed(1).padStart(6)} | ${s.p99Ms.toFixed(1).padStart(6)} | ${String(s.non2xx).padStart(7)}`);
    }
  }
  const base = runs.filter((r) => r.checkout !== HERE);
  const mine = runs.filter((r) => r.checkout === HERE);
  if (base.length > 0 && mine.length > 0) {
    const mean = (rs: MixedRun[]) => rs.reduce((s, r) => s + r.stats.at(-1)!.rps, 0) / rs.length;
    console.log(`\ntotal req/s, this ÷ baseline: ${(mean(mine) / mean(base)).toFixed(2)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printMixed(await benchMixed());
}

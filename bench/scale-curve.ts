/**
 * Benchmark: the scale curve. AI question jobs (local provider, the real
 * handler: retrieval, LLM registry, authorize before work and in the fenced persist) submitted
 * over HTTP through 1 or 2 `codesynapse serve` processes and run by 1, 2 or 4
 * `codesynapse worker --pools ai` processes, on PostgreSQL (a database of its own, created and
 * dropped here), once per dispatch path: PostgreSQL-only (no REDIS_URL: the workers claim from
 * the rows, woken by NOTIFY) and BullMQ on a private redis-server (so no other Redis user shares
 * the queues). Per configuration: jobs/s from the first submission to the last success, the
 * submission rate, each job's time from its row's insert to its finish (p50/p99, from the rows'
 * created_at and finished_at) and each process's memory (peak VmHWM, from /proc). Workers are
 * added between rows (1 → 2 → 4), each row measured with one API node and then with both.
 * Env: SCALE_JOBS (400 per row), SCALE_SUBMITTERS (16), SCALE_PATHS (postgres,bullmq),
 * TEST_DATABASE_URL.
 * Run: npm run bench -- scale-curve   (or: npx tsx bench/scale-curve.ts)
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import pg from "pg";
import { migrateToLatest, openDatabase } from "../db/database";
import { seedAccount } from "../test/support/fixtures";
import { call, registerThread } from "../test/support/http";
import { startPrivateRedis } from "../test/support/private-redis";
import { BIN, cleanEnv, startScript, startServer, type Started } from "../test/support/process";

const JOBS = Number(process.env.SCALE_JOBS ?? 400);
const SUBMITTERS = Number(process.env.SCALE_SUBMITTERS ?? 16);
const PATHS = (process.env.SCALE_PATHS ?? "postgres,bullmq").split(",").filter((p): p is Path => p === "postgres" || p === "bullmq");

type Path = "postgres" | "bullmq";

interface Row {
  path: Path;
  apis: number;
  workers: number;
  seconds: number;
  jobsPerS: number;
  submitPerS: number;
  /** Milliseconds from a job row's insert to its finish. */
  p50: number;
  p99: number;
  apiRssMiB: number[];
  workerRssMiB: number[];
}

function memMiB(pid: number | undefined): { rss: number; hwm: number } {
  if (pid === undefined) return { rss: 0, hwm: 0 };
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(s)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** `codesynapse worker --pools ai` (its metrics on a free port: several run at once), ready once it logs that its pools started. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return (await startScript(BIN, ["worker", "--pools", "ai"], { METRICS_PORT: "0", ...env }, { timeoutMs: 120_000, ready: ['"msg":"worker pools started"'] })).child;
}

export async function benchScaleCurve(): Promise<Row[]> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) {
    console.log("scale-curve bench: skipped (TEST_DATABASE_URL not set)");
    return [];
  }
  const rows: Row[] = [];
  for (const path of PATHS) rows.push(...(await curve(url, path)));
  printScaleCurve(rows);
  return rows;
}

/** One dispatch path's curve, on a database of its own (and, for BullMQ, a private Redis). */
async function curve(url: string, path: Path): Promise<Row[]> {
  const name = `cs_bench_curve_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const d = await openDatabase({ url: u.toString(), poolSize: 4 });
  const redis = path === "bullmq" ? await startPrivateRedis() : undefined;
  const apis: Started[] = [];
  const workers: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    await migrateToLatest(d.db);
    const a = await seedAccount(d.db);
    const env = cleanEnv({ DATABASE_URL: u.toString(), ...(redis ? { REDIS_URL: redis.url } : {}), LOG_LEVEL: "info" });
    apis.push(...(await Promise.all([startServer(["serve"], env), startServer(["serve"], env)])));
    const thread = await registerThread(apis[0]!.url, a.apiKey);

    const runRow = async (apiCount: number): Promise<Row> => {
      const targets = apis.slice(0, apiCount).map((s) => s.url);
      const ids: string[] = [];
      let next = 0;
      const t0 = Date.now();
      await Promise.all(
        Array.from({ length: SUBMITTERS }, async () => {
          for (;;) {
            const i = next++;
            if (i >= JOBS) return;
            const r = await call(targets[i % targets.length]!, "POST", `/api/v1/repos/${a.repoId}/ai-tasks`, { headers: thread.headers, body: { task: "question", question: `where is verifyToken? (${i})` } });
            if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${r.text}`);
            ids.push(r.body.job_id as string);
          }
        }),
      );
      const submitted = Date.now();
      for (;;) {
        const c = await d.db.selectFrom("jobs").select(["status"]).select((eb) => eb.fn.countAll<string>().as("n")).where("id", "in", ids).groupBy("status").execute();
        const by = Object.fromEntries(c.map((x) => [x.status, Number(x.n)]));
        if ((by.succeeded ?? 0) === JOBS) break;
        const terminalOther = Object.entries(by).filter(([k]) => !["queued", "running", "succeeded"].includes(k));
        if (terminalOther.length > 0) throw new Error(`jobs ended otherwise: ${JSON.stringify(by)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (Date.now() - t0) / 1000;
      const times = await d.db.selectFrom("jobs").select(["created_at", "finished_at"]).where("id", "in", ids).execute();
      const ms = times.map((t) => new Date(t.finished_at!).getTime() - new Date(t.created_at).getTime()).sort((x, y) => x - y);
      const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
      return {
        path,
        apis: apiCount,
        workers: workers.length,
        seconds,
        jobsPerS: JOBS / seconds,
        submitPerS: JOBS / ((submitted - t0) / 1000),
        p50: at(0.5),
        p99: at(0.99),
        apiRssMiB: apis.slice(0, apiCount).map((s) => memMiB(s.child.pid).hwm),
        workerRssMiB: workers.map((w) => memMiB(w.pid).hwm),
      };
    };

    for (const target of [1, 2, 4]) {
      while (workers.length < target) workers.push(await startWorker(env));
      for (const apiCount of [1, 2]) {
        const r = await runRow(apiCount);
        rows.push(r);
        console.log(`${path}: apis=${r.apis} workers=${r.workers}: ${r.jobsPerS.toFixed(1)} jobs/s (${r.seconds.toFixed(1)} s), submit ${r.submitPerS.toFixed(0)}/s, p50/p99 ${r.p50}/${r.p99} ms`);
      }
    }
  } finally {
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(apis.map((s) => s.stop()));
    await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once("exit", r)))));
    await redis?.stop();
    await d.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  return rows;
}

export function printScaleCurve(rows: Row[]): void {
  const load = os.loadavg().map((x) => x.toFixed(1)).join(", ");
  console.log(`\n## scale curve (${JOBS} AI question jobs per row, ${SUBMITTERS} submitters; ${os.cpus().length} cores, load average ${load} at the end — shared machine)`);
  console.log("dispatch | API procs | worker procs | jobs/s | ratio to 1×1 | vs PostgreSQL | submit/s | job p50/p99 ms | API peak RSS MiB | worker peak RSS MiB");
  for (const r of rows) {
    const base = rows.find((x) => x.path === r.path)!.jobsPerS;
    const pgRow = rows.find((x) => x.path === "postgres" && x.apis === r.apis && x.workers === r.workers);
    console.log(
      `${r.path.padEnd(8)} | ${String(r.apis).padStart(9)} | ${String(r.workers).padStart(12)} | ${r.jobsPerS.toFixed(1).padStart(6)} | ${(r.jobsPerS / base).toFixed(2).padStart(12)} | ${(pgRow ? (r.jobsPerS / pgRow.jobsPerS).toFixed(2) : "-").padStart(13)} | ${r.submitPerS.toFixed(0).padStart(8)} | ${`${r.p50.toFixed(0)}/${r.p99.toFixed(0)}`.padStart(14)} | ${r.apiRssMiB.map((m) => m.toFixed(0)).join(", ").padStart(16)} | ${r.workerRssMiB.map((m) => m.toFixed(0)).join(", ")}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchScaleCurve();
}

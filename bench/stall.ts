/**
 * The embedded default under a first ingest: `start` (API + every worker pool in one process) on
 * PGlite in a fresh data directory, one first ingest of a ~1,000-file real project, and meanwhile a
 * prober that sends `GET /healthz` and a job read (`GET /api/v1/jobs/:id`) every PROBE_MS and the
 * event-loop delay histogram (perf_hooks.monitorEventLoopDelay). Prints p50/p99/max of each: a
 * request that waits behind the ingest (CPU work or a long statement on the one PGlite connection)
 * shows up here, whatever the request log says.
 *
 * The project: BENCH_STALL_DIR, else lodash as npm installed it (1,000+ CommonJS files). Run alone:
 * `npx tsx bench/stall.ts`, or `BENCH_ONLY=stall npm run bench`.
 *
 * Before/after in one run: `BENCH_STALL_BASELINE=<git revision> npx tsx bench/stall.ts` unpacks that
 * revision's tree (git archive; this checkout's node_modules linked in) and measures it and this
 * tree alternately, BENCH_STALL_ROUNDS rounds (default 1) of each, each in a fresh child process
 * running this file's prober against that tree's platform (BENCH_STALL_ROOT), then prints both and
 * the ratios. BENCH_STALL_CPU_PROF=<dir> writes a --cpu-prof profile of each child there.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, symlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

/** This checkout. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const PROBE_MS = Number(process.env.BENCH_STALL_PROBE_MS ?? 50);

export interface StallRow {
  what: string;
  n: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface StallResult {
  project: string;
  files: number;
  ingest_ms: number;
  /** Probe requests that failed (a dropped connection) rather than answered. */
  failed: number;
  rows: StallRow[];
}

function stallDir(): string {
  if (process.env.BENCH_STALL_DIR) return path.resolve(process.env.BENCH_STALL_DIR);
  return path.dirname(createRequire(import.meta.url).resolve("lodash/package.json"));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
/** p50 / p99 / max of latency samples, as the stall tables print them. */
export function row(what: string, samples: number[]): StallRow {
  const s = [...samples].sort((a, b) => a - b);
  return { what, n: s.length, p50_ms: +pct(s, 50).toFixed(1), p99_ms: +pct(s, 99).toFixed(1), max_ms: +(s.at(-1) ?? 0).toFixed(1) };
}

/** The platform of the tree at `root` (this checkout, or a baseline's unpacked tree). */
async function platformOf(root: string) {
  const load = (p: string) => import(pathToFileURL(path.join(root, p)).href);
  const [{ loadConfig }, { silentLogger }, { startPlatform }, { seedAccount }] = await Promise.all([
    load("core/config.ts") as Promise<typeof import("../core/config")>,
    load("core/log.ts") as Promise<typeof import("../core/log")>,
    load("main/runtime.ts") as Promise<typeof import("../main/runtime")>,
    load("test/support/fixtures.ts") as Promise<typeof import("../test/support/fixtures")>,
  ]);
  return { loadConfig, silentLogger, startPlatform, seedAccount };
}

export async function benchStall(root = process.env.BENCH_STALL_ROOT ?? ROOT): Promise<StallResult> {
  const { loadConfig, silentLogger, startPlatform, seedAccount } = await platformOf(root);
  const project = stallDir();
  const dataDir = await mkdtemp(path.join(tmpdir(), "cs-stall-"));
  const config = loadConfig({
    PORT: "0",
    CODESYNAPSE_DATA_DIR: dataDir,
    INGEST_ALLOWED_ROOTS: path.dirname(project),
    LOG_LEVEL: "silent",
  });
  const platform = await startPlatform(config, { serve: true, pools: ["ingest", "embedding", "ai", "fix", "cleanup"], logger: silentLogger() });
  try {
    const base = platform.url!;
    const a = await seedAccount(platform.database.db);
    const session = `stall-${randomBytes(6).toString("hex")}`;
    const auth = { authorization: `Bearer ${a.apiKey}` };
    const reg = await fetch(`${base}/api/v1/execution/sessions`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ session_id: session }) });
    if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    const headers = { ...auth, "x-codesynapse-session": session, "x-codesynapse-parent-session": session };
    const sub = await fetch(`${base}/api/v1/repos/${a.repoId}/ingest`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ path: project }) });
    if (sub.status !== 202) throw new Error(`submit: ${sub.status} ${await sub.text()}`);
    const jobId = ((await sub.json()) as { job_id: string }).job_id;

    const t0 = performance.now();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const health: number[] = [];
    const reads: number[] = [];
    let status = "queued";
    let result: { files?: number } = {};
    let failed = 0;
    // A request that fails (a keep-alive connection the stalled server dropped) counts as failed,
    // timed until it failed; the probe goes on.
    const timed = async (url: string, into: number[]): Promise<{ status?: string; result?: { files?: number } } | undefined> => {
      const s = performance.now();
      try {
        const r = await fetch(url, { headers });
        const body = (await r.json()) as { status?: string; result?: { files?: number } };
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        return body;
      } catch {
        failed++;
        return undefined;
      } finally {
        into.push(performance.now() - s);
      }
    };
    const deadline = Date.now() + 600_000;
    while (status === "queued" || status === "running") {
      if (Date.now() > deadline) throw new Error("the ingest did not finish within 10 minutes");
      // Both probes in flight at once, every PROBE_MS, each timed from its own send.
      const [, job] = await Promise.all([timed(`${base}/healthz`, health), timed(`${base}/api/v1/jobs/${jobId}`, reads), new Promise((r) => setTimeout(r, PROBE_MS))]);
      if (job) {
        status = job.status!;
        result = job.result ?? {};
      }
    }
    loop.disable();
    if (status !== "succeeded") throw new Error(`the ingest ended ${status}`);
    const ingestMs = performance.now() - t0;
    const ns = (v: number) => v / 1e6;
    return {
      project,
      files: result.files ?? 0,
      ingest_ms: Math.round(ingestMs),
      failed,
      rows: [
        row("GET /healthz", health),
        row("GET /api/v1/jobs/:id", reads),
        { what: "event-loop delay", n: loop.count, p50_ms: +ns(loop.percentile(50)).toFixed(1), p99_ms: +ns(loop.percentile(99)).toFixed(1), max_ms: +ns(loop.max).toFixed(1) },
      ],
    };
  } finally {
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** One measurement in a fresh child process against the tree at `root`. */
function childRun(root: string, label: string): Promise<StallResult> {
  const prof = process.env.BENCH_STALL_CPU_PROF;
  const args = [...(prof ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(prof)}`, `--cpu-prof-name=stall-${label}-${Date.now()}.cpuprofile`] : []), "--import", "tsx", fileURLToPath(import.meta.url)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_STALL_BASELINE: "", BENCH_STALL_ROOT: root, BENCH_STALL_JSON: "1" }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`the ${label} run ended ${code}`));
      else resolve(JSON.parse(line) as StallResult);
    });
  });
}

/** The baseline revision and this tree, alternately, `rounds` each; prints every run and the ratios (this ÷ baseline) of the medians' rows. */
export async function benchStallBaseline(rev: string, rounds: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "cs-stall-base-"));
  execFileSync("sh", ["-c", `git -C "${ROOT}" archive "${rev}" | tar -x -C "${dir}"`]);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const short = execFileSync("git", ["-C", ROOT, "rev-parse", "--short", rev], { encoding: "utf8" }).trim();
  const head = execFileSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const runs: Array<{ label: string; r: StallResult }> = [];
  try {
    for (let i = 0; i < rounds; i++) {
      runs.push({ label: `baseline ${short}`, r: await childRun(dir, "baseline") });
      runs.push({ label: `this tree (${head}+)`, r: await childRun(ROOT, "current") });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const { label, r } of runs) {
    console.log(`\n### ${label}`);
    printStall(r);
  }
  const last = (label: string) => runs.filter((x) => x.label.startsWith(label)).at(-1)!.r;
  const base = last("baseline");
  const cur = last("this tree");
  console.log(`\n## this tree ÷ baseline ${short} (last round; lower is better)`);
  console.table(
    cur.rows.map((c, i) => {
      const b = base.rows[i]!;
      const q = (x: number, y: number) => (y > 0 ? +(x / y).toFixed(2) : null);
      return { what: c.what, p50: q(c.p50_ms, b.p50_ms), p99: q(c.p99_ms, b.p99_ms), max: q(c.max_ms, b.max_ms) };
    }),
  );
  console.log(`ingest: baseline ${base.ingest_ms} ms, this tree ${cur.ingest_ms} ms`);
}

export function printStall(r: StallResult): void {
  console.log(`\n## requests during a first ingest on the embedded default (PGlite data directory; ${r.files} files of ${r.project}; ingest ${r.ingest_ms} ms; ${r.failed} probe requests failed; target p99 < 250 ms, max < 1000 ms)`);
  console.table(r.rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.BENCH_STALL_BASELINE) await benchStallBaseline(process.env.BENCH_STALL_BASELINE, Number(process.env.BENCH_STALL_ROUNDS ?? 1));
  else if (process.env.BENCH_STALL_JSON) console.log(JSON.stringify(await benchStall()));
  else printStall(await benchStall());
  process.exit(0);
}

/**
 * `npm run bench:rss`: the resident memory of an idle `npm start` on a fresh data directory, and
 * on a restart over the same directory (docs/stores.md#embedded-memory; the budget:
 * steady ≤ 250 MB, peak ≤ 400 MB on a fresh data directory).
 *
 * Each configuration is started with a new CODESYNAPSE_DATA_DIR and a free port; its RSS is read
 * from /proc every second for RSS_SECONDS (60) and printed, then the peak and the steady RSS (the
 * median of the last third of the samples). RSS is the whole process tree's — the server, and any
 * child (the initdb child of a first start without a template, npm and its shell when the
 * configuration is `npm`); the peak is the larger of the highest tree sample and any one
 * process's high-water mark (VmHWM, which catches a spike between two samples). Then the same
 * data directory is started again (RSS_RUNS, default 2: fresh + restart). Linux only (/proc).
 *
 * Configurations (RSS_CONFIGS, comma-separated; default `start`):
 *   start   what `npm start` runs, read from package.json's script: `node scripts/build.mjs`
 *           (dist/ and the PGlite cluster template), then its server command (`CODESYNAPSE_RUN=dist
 *           node --liftoff-only bin/codesynapse.js start`). The build runs once before the
 *           measurement, as `npm start` runs it before the server.
 *   npm     `npm start` itself, npm's own process and its shell included in the tree.
 *   tsx     `node bin/codesynapse.js start` in this checkout: the sources through tsx (what the
 *           e2e tests and `npx codesynapse start` run), with the template if dist/ has one.
 *   base    RSS_BASELINE (a git revision, e.g. `main` or a commit): that revision's tree, unpacked
 *           into a temporary directory with this checkout's node_modules linked in, started as its
 *           `npm start` then did (`node bin/codesynapse.js start`, through tsx). Gives the
 *           before/after side by side in one run: RSS_BASELINE=4cfc3ef RSS_CONFIGS=base,start.
 * The closing table has one row per configuration and start.
 *
 * After the idle window of the first (fresh) run, the bench uses the server as a newcomer does
 * (RSS_RECALL=0 skips it): `admin bootstrap` through the running server, a chat thread, one
 * session-memory upsert and one recall over HTTP — the embedded default loads its sentence model
 * there — then samples RSS_SECONDS / 2 more seconds and reports the steady RSS after the first
 * recall beside the idle one.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.RSS_SECONDS ?? 60);
const RUNS = Number(process.env.RSS_RUNS ?? 2);
const CONFIGS = (process.env.RSS_CONFIGS ?? (process.env.RSS_BASELINE ? "base,start" : "start")).split(",").map((s) => s.trim());
const RECALL = process.env.RSS_RECALL !== "0";
const STEADY_MB = 250;
const PEAK_MB = 400;

interface Launch {
  label: string;
  cwd: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

function statusOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

/** The process and its descendants (the initdb child of a first start counts). */
function treeOf(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

/** RSS of the whole tree now, how many processes it has, and the largest high-water mark of any one of them. */
function memOf(pid: number): { rss: number; hwm: number; procs: number } | undefined {
  if (!statusOf(pid)) return undefined;
  let rss = 0;
  let hwm = 0;
  let procs = 0;
  for (const p of treeOf(pid)) {
    const m = statusOf(p);
    if (!m) continue;
    rss += m.rss;
    hwm = Math.max(hwm, m.hwm);
    procs++;
  }
  return { rss, hwm, procs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mb = (n: number) => `${n.toFixed(0)} MB`;

/** The runner's environment without anything that would point the server at a store or a port of its own. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(DATABASE_URL|TEST_DATABASE_URL|REDIS_|NEO4J_|MILVUS_|HUGEGRAPH_|CODESYNAPSE_|MEMORY_STORE|VECTOR_INDEX|PORT|METRICS_|OTEL_|npm_)/.test(k)) env[k] = v;
  }
  return env;
}

/** The server command of package.json's `start` script (its last `&&` step): `VAR=value … exec node ARGS`. */
function npmStartServer(): { env: NodeJS.ProcessEnv; args: string[] } {
  const script = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start!;
  const words = script.split("&&").at(-1)!.trim().split(/\s+/);
  const env: NodeJS.ProcessEnv = {};
  while (/^[A-Z_]+=/.test(words[0] ?? "")) {
    const [k, v] = words.shift()!.split("=") as [string, string];
    env[k] = v;
  }
  if (words[0] === "exec") words.shift();
  if (words.shift() !== "node") throw new Error(`package.json's start script does not end in a node command: ${script}`);
  return { env, args: words };
}

function launchOf(config: string): Launch {
  const bin = (root: string) => path.join(root, "bin", "codesynapse.js");
  switch (config) {
    case "start": {
      const server = npmStartServer();
      return { label: `npm start's server (${Object.entries(server.env).map(([k, v]) => `${k}=${v} `).join("")}node ${server.args.join(" ")})`, cwd: ROOT, command: process.execPath, args: server.args, env: server.env };
    }
    case "npm":
      return { label: "npm start (npm + sh + server)", cwd: ROOT, command: "npm", args: ["start", "--silent"], env: {} };
    case "tsx":
      return { label: "sources through tsx", cwd: ROOT, command: process.execPath, args: [bin(ROOT), "start"], env: {} };
    case "base": {
      const rev = process.env.RSS_BASELINE;
      if (!rev) throw new Error("RSS_CONFIGS=base needs RSS_BASELINE=<git revision>");
      const dir = mkdtempSync(path.join(tmpdir(), "codesynapse-rss-base-"));
      execFileSync("sh", ["-c", `git -C "${ROOT}" archive "${rev}" | tar -x -C "${dir}"`]);
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
      const short = execFileSync("git", ["-C", ROOT, "rev-parse", "--short", rev], { encoding: "utf8" }).trim();
      return { label: `baseline ${short} (its npm start: tsx)`, cwd: dir, command: process.execPath, args: [bin(dir), "start"], env: {} };
    }
    default:
      throw new Error(`unknown RSS_CONFIGS entry ${config} (start, npm, tsx, base)`);
  }
}

/** Samples the tree's RSS once a second for `seconds`, printing each; the samples and the peak. */
async function sample(child: { pid?: number | undefined; exitCode: number | null }, seconds: number, stderr: () => string, mark: (s: number, n: number) => string): Promise<{ samples: number[]; peak: number }> {
  const samples: number[] = [];
  let peak = 0;
  for (let s = 1; s <= seconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr()}`);
    const m = memOf(child.pid!);
    if (!m) continue;
    samples.push(m.rss);
    peak = Math.max(peak, m.hwm, m.rss);
    console.log(`${String(s).padStart(3)}  ${mb(m.rss).padStart(7)}  ${m.procs}${mark(s, samples.length)}`);
  }
  return { samples, peak };
}

/**
 * A newcomer's first recall against the running server: bootstrap (through the server, as
 * examples/quickstart.sh does), a thread, one session-memory upsert, one recall. Answers the
 * recall's `results` count.
 */
async function firstRecall(launch: Launch, base: string, dataDir: string): Promise<number> {
  const boot = JSON.parse(
    execFileSync(process.execPath, [path.join(launch.cwd, "bin", "codesynapse.js"), "admin", "bootstrap", "--org", "Acme", "--email", "dev@acme.test", "--repo", "webapp", "--json"], {
      cwd: launch.cwd,
      env: { ...cleanEnv(), CODESYNAPSE_DATA_DIR: dataDir },
      encoding: "utf8",
    }),
  ) as { api_key: string };
  const thread = `rss-${Date.now()}`;
  const call = async (method: string, p: string, body: unknown, session = true) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${boot.api_key}`, "content-type": "application/json", ...(session ? { "x-codesynapse-session": thread, "x-codesynapse-parent-session": thread } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await call("POST", "/api/v1/execution/sessions", { session_id: thread }, false);
  await call("POST", "/api/v1/repos/webapp/session-memory", {
    triples: [
      { subject: "AuthService", subject_type: "class", predicate: "verifies", object: "bearer tokens", object_type: "concept" },
      { subject: "ApiKeyStore", subject_type: "class", predicate: "hashes", object: "api keys", object_type: "concept" },
    ],
  });
  const r = await call("POST", "/api/v1/repos/webapp/session-memory/recall", { query: "Where are tokens verified?" });
  return (r.results as unknown[]).length;
}

async function measure(launch: Launch, dataDir: string, run: string, recall = false): Promise<{ steady: number; peak: number; listening?: number; afterRecall?: { steady: number; peak: number } }> {
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: { ...cleanEnv(), ...launch.env, CODESYNAPSE_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let listeningAt: number | undefined;
  let base: string | undefined;
  const started = Date.now();
  child.stdout.on("data", (d: Buffer) => {
    const text = d.toString();
    if (listeningAt === undefined && text.includes('"msg":"listening"')) {
      listeningAt = (Date.now() - started) / 1000;
      base = /"url":"([^"]+)"/.exec(text)?.[1];
    }
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  console.log(`\n${launch.label}, ${run}: pid ${child.pid}, data dir ${dataDir}`);
  console.log("  s   RSS  processes");
  let samples: number[];
  let peak: number;
  let afterRecall: { steady: number; peak: number } | undefined;
  try {
    ({ samples, peak } = await sample(child, SECONDS, () => stderr, (_, n) => (listeningAt !== undefined && n === Math.ceil(listeningAt) ? "  (listening)" : "")));
    if (recall) {
      if (!base) throw new Error("the server never logged its listening url");
      const n = await firstRecall(launch, base, dataDir);
      console.log(`first recall answered (${n} results); sampling ${Math.ceil(SECONDS / 2)} s more`);
      const after = await sample(child, Math.ceil(SECONDS / 2), () => stderr, () => "");
      afterRecall = { steady: median(after.samples.slice(Math.floor(after.samples.length / 3))), peak: after.peak };
      console.log(`${launch.label}, ${run}: after the first recall peak ${mb(afterRecall.peak)}; steady ${mb(afterRecall.steady)}`);
    }
  } finally {
    // The whole group: `npm start` forwards SIGTERM, but a stray child must not outlive the bench.
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      process.kill(-child.pid!, "SIGTERM");
    });
  }
  const tail = samples.length - Math.floor((samples.length * 2) / 3);
  const steady = median(samples.slice(Math.floor((samples.length * 2) / 3)));
  console.log(`${launch.label}, ${run}: listening after ${listeningAt?.toFixed(1) ?? "—"} s; peak ${mb(peak)}; steady (median of the last ${tail} s) ${mb(steady)}`);
  return { steady, peak, ...(listeningAt !== undefined ? { listening: listeningAt } : {}), ...(afterRecall ? { afterRecall } : {}) };
}

if (CONFIGS.some((c) => c === "start" || c === "npm")) {
  // What `npm start` does before its server: the build (dist/ and the cluster template; a new
  // PGlite version makes its template here, once — see scripts/pglite-template.mjs).
  console.log(execFileSync(process.execPath, [path.join(ROOT, "scripts", "build.mjs")], { encoding: "utf8" }).trim());
}
const rows: string[] = [];
for (const config of CONFIGS) {
  const launch = launchOf(config);
  const dataDir = mkdtempSync(path.join(tmpdir(), "codesynapse-rss-"));
  try {
    for (let run = 1; run <= RUNS; run++) {
      const label = run === 1 ? "fresh data dir" : `restart ${run - 1} (same data dir)`;
      const r = await measure(launch, dataDir, label, RECALL && run === 1);
      const within = r.peak <= PEAK_MB && r.steady <= STEADY_MB;
      const after = r.afterRecall ? `${mb(r.afterRecall.steady)} (peak ${mb(r.afterRecall.peak)})` : "—";
      rows.push(`| ${launch.label} | ${run === 1 ? "fresh" : `restart ${run - 1}`} | ${mb(r.peak)} | ${mb(r.steady)} | ${r.listening?.toFixed(1) ?? "—"} s | ${within ? "within" : "OVER"} | ${after} |`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (config === "base") rmSync(launch.cwd, { recursive: true, force: true });
  }
}
console.log(`\n| configuration | start | peak | steady | listening after | budget (peak ≤ ${PEAK_MB} MB, steady ≤ ${STEADY_MB} MB) | steady after the first recall |\n|---|---|---|---|---|---|---|`);
for (const row of rows) console.log(row);

/**
 * `npm run bench:rss`: the resident memory of an idle `npm start` on a fresh data directory.
 * Starts the real process (`node bin/codesynapse.js start`, what `npm start` runs) with a new
 * CODESYNAPSE_DATA_DIR and a free port, reads its RSS from /proc every second for RSS_SECONDS
 * (60), and prints one line per second, then the peak and the steady RSS (the median of the last
 * third of the samples). RSS is the process tree's (the server and any child, e.g. the initdb of a
 * first start); the peak is the larger of the highest tree sample and any one process's
 * high-water mark (VmHWM). Budget (issue 17): steady ≤ 250 MB,
 * peak ≤ 400 MB; the last line says whether it holds. RSS_RUNS=2 measures a second start on the
 * same (now migrated) data directory as well. Linux only (/proc).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const BIN = path.resolve(import.meta.dirname, "../bin/codesynapse.js");
const SECONDS = Number(process.env.RSS_SECONDS ?? 60);
const RUNS = Number(process.env.RSS_RUNS ?? 1);
const STEADY_MB = 250;
const PEAK_MB = 400;

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

/** RSS of the whole tree now, and the largest high-water mark of any one process in it. */
function memOf(pid: number): { rss: number; hwm: number } | undefined {
  const main = statusOf(pid);
  if (!main) return undefined;
  let rss = 0;
  let hwm = 0;
  for (const p of treeOf(pid)) {
    const m = statusOf(p);
    if (!m) continue;
    rss += m.rss;
    hwm = Math.max(hwm, m.hwm);
  }
  return { rss, hwm };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mb = (n: number) => `${n.toFixed(0)} MB`;

async function measure(dataDir: string, label: string): Promise<{ steady: number; peak: number }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(DATABASE_URL|TEST_DATABASE_URL|REDIS_URL|NEO4J_|MILVUS_|HUGEGRAPH_|CODESYNAPSE_|MEMORY_STORE|VECTOR_INDEX|PORT)/.test(k)) env[k] = v;
  const child = spawn(process.execPath, [BIN, "start"], {
    env: { ...env, CODESYNAPSE_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let listeningAt: number | undefined;
  const started = Date.now();
  child.stdout.on("data", (d: Buffer) => {
    if (listeningAt === undefined && d.toString().includes('"msg":"listening"')) listeningAt = (Date.now() - started) / 1000;
  });
  child.stderr.resume();
  const samples: number[] = [];
  let peak = 0;
  console.log(`\n${label}: pid ${child.pid}, data dir ${dataDir}`);
  console.log("  s   RSS");
  for (let s = 1; s <= SECONDS; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const m = memOf(child.pid!);
    if (!m) continue;
    samples.push(m.rss);
    peak = Math.max(peak, m.hwm, m.rss);
    console.log(`${String(s).padStart(3)}  ${mb(m.rss).padStart(7)}${listeningAt !== undefined && samples.length === Math.ceil(listeningAt) ? "  (listening)" : ""}`);
  }
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  const steady = median(samples.slice(Math.floor((samples.length * 2) / 3)));
  console.log(`${label}: listening after ${listeningAt?.toFixed(1) ?? "—"} s; peak (VmHWM) ${mb(peak)}; steady (median of the last ${samples.length - Math.floor((samples.length * 2) / 3)} s) ${mb(steady)}`);
  return { steady, peak };
}

const dataDir = mkdtempSync(path.join(tmpdir(), "codesynapse-rss-"));
try {
  const results = [];
  for (let run = 1; run <= RUNS; run++) results.push(await measure(dataDir, run === 1 ? "first start (fresh data dir)" : `start ${run} (same data dir)`));
  console.log("\n| start | peak | steady | budget (peak ≤ 400 MB, steady ≤ 250 MB) |\n|---|---|---|---|");
  results.forEach((r, i) =>
    console.log(`| ${i === 0 ? "fresh" : `#${i + 1}`} | ${mb(r.peak)} | ${mb(r.steady)} | ${r.peak <= PEAK_MB && r.steady <= STEADY_MB ? "within" : "OVER"} |`),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

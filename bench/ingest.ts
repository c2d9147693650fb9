/**
 * Ingest speed and memory on a real TypeScript project
 * (bench/code-project.ts, zod's source by default): files/s of parse + code
 * graph (what an ingest job computes before it writes) and the process's peak
 * RSS, for the line-regex reader, tree-sitter, and a tree-sitter re-ingest of
 * the unchanged project (incremental: content hashes only). Each reader runs
 * in its own child process, so peak RSS is that reader's alone; `base` is the
 * RSS with the files read and nothing parsed. Pass 1 is cold (for
 * tree-sitter: runtime and grammar loaded); the best of the next passes is warm.
 * Run alone: npx tsx bench/ingest.ts (BENCH_INGEST_PASSES, default 4).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildCodeGraph } from "../core/ingest/graph";
import { parseChanged, sha256Hex, type CacheRow } from "../core/ingest/incremental";
import { parseSource, type ParsedFile } from "../core/ingest/parse";
import { parseSyntax, SYNTAX_PARSER } from "../core/ingest/syntax";
import { projectDir, projectFiles } from "./code-project";

const MODES = ["regex", "tree-sitter", "tree-sitter re-ingest (unchanged)"] as const;
type Mode = (typeof MODES)[number];
const PASSES = Math.max(2, Number(process.env.BENCH_INGEST_PASSES ?? 4));

export interface IngestRow {
  reader: Mode;
  files: number;
  cold_ms: number;
  warm_ms: number;
  files_per_s: number;
  edges: number;
  base_rss_mb: number;
  peak_rss_mb: number;
}

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);

async function measure(mode: Mode): Promise<IngestRow> {
  const files = await projectFiles();
  const walked = files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.text), text: f.text }));
  const base = process.memoryUsage().rss;
  let cache = new Map<string, CacheRow>();
  const once = async (): Promise<number> => {
    let parsed: Array<ParsedFile | null>;
    if (mode === "regex") parsed = files.map((f) => parseSource(f.path, f.text));
    else if (mode === "tree-sitter") parsed = await Promise.all(files.map((f) => parseSyntax(f.path, f.text)));
    else parsed = (await parseChanged(walked, cache)).files.map((f) => f.parsed);
    const triples = await buildCodeGraph("bench", "bench", files.map((f, i) => ({ path: f.path, parsed: parsed[i] ?? null })), null);
    return triples.length;
  };
  if (mode !== "regex" && mode !== "tree-sitter") {
    // The previous ingest's cache: every file parsed once, as a first ingest leaves it.
    cache = new Map(await Promise.all(files.map(async (f) => [f.path, { sha256: sha256Hex(f.text), parser: SYNTAX_PARSER, parsed: await parseSyntax(f.path, f.text) }] as const)));
  }
  const times: number[] = [];
  let edges = 0;
  for (let i = 0; i < PASSES; i++) {
    const t0 = performance.now();
    edges = await once();
    times.push(performance.now() - t0);
  }
  const warm = Math.min(...times.slice(1));
  return {
    reader: mode,
    files: files.length,
    cold_ms: +times[0]!.toFixed(1),
    warm_ms: +warm.toFixed(1),
    files_per_s: Math.round(files.length / (warm / 1000)),
    edges,
    base_rss_mb: mb(base),
    peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

export async function benchIngest(): Promise<{ project: string; rows: IngestRow[] }> {
  const self = fileURLToPath(import.meta.url);
  const rows: IngestRow[] = [];
  for (const mode of MODES) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", self, "--worker", mode], { maxBuffer: 1 << 20, env: process.env });
    rows.push(JSON.parse(stdout.trim().split("\n").at(-1)!) as IngestRow);
  }
  return { project: projectDir().label, rows };
}

export function printIngest(r: { project: string; rows: IngestRow[] }): void {
  console.log(`\n== ingest parse + graph: ${r.project} (each reader in its own process)`);
  console.table(r.rows);
}

if (process.argv[2] === "--worker") {
  console.log(JSON.stringify(await measure(process.argv[3] as Mode)));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  printIngest(await benchIngest());
}

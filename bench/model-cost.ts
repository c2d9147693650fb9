/**
 * What a sentence model costs (`BENCH_ONLY=model-cost npm run bench`, or `npx tsx bench/model-cost.ts`):
 * the bundled model and, with BENCH_CANDIDATES_DIR (bench/fetch-candidate-models.sh), the candidates
 * it was chosen against. Per model: the first embed (checksums, forking the inference process,
 * loading the weights and the tokenizer), the inference process's RSS once loaded and after the
 * runs below, ms per query (300 distinct short questions, the models interleaved question by
 * question so the machine's load falls on each alike: p50 / p95), and ms per 100 statements embedded
 * (300 of the conversational set's observations in batches of 50, the models taking turns). One intra-op thread each,
 * as the server runs them.
 */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { makeIdentity } from "../core/execution/identity";
import { SentenceModelEmbedder } from "../db/embedding/sentence-model";
import { candidateEmbedders } from "./candidate-models";
import { observationsOf } from "./recall-conversation";
import { DEV_CONVERSATIONS } from "./recall-conversation-set";

const identity = makeIdentity({ tenant_id: "org-cost", subject_id: "usr-cost", session_id: "bench-cost", parent_session_id: "bench-cost" });

export interface ModelCost {
  model: string;
  file_mb: number;
  first_embed_ms: number;
  child_rss_loaded_mb: number;
  child_rss_after_mb: number;
  query_p50_ms: number;
  query_p95_ms: number;
  per_100_statements_ms: number;
}

/** The RSS (MB) of this process's children, by pid. */
function childRss(): Map<number, number> {
  const out = new Map<number, number>();
  let text: string;
  try {
    text = execFileSync("ps", ["--ppid", String(process.pid), "-o", "pid=,rss="], { encoding: "utf8" });
  } catch {
    return out; // no children
  }
  for (const line of text.trim().split("\n")) {
    const [pid, rss] = line.trim().split(/\s+/).map(Number);
    if (pid && rss) out.set(pid, rss / 1024);
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function benchModelCost(queries = 300): Promise<{ load: string; rows: ModelCost[] }> {
  const models: Array<[string, SentenceModelEmbedder]> = [["minilm-l6-v2-int8-384", new SentenceModelEmbedder()]];
  for (const [, e] of Object.values(candidateEmbedders())) if (e instanceof SentenceModelEmbedder) models.push([e.model, e]);
  const rows: Array<ModelCost & { pid?: number; times: number[] }> = [];
  for (const [name, e] of models) {
    const before = childRss();
    const t = performance.now();
    await e.embed(identity, ["warm up the model"]);
    const first = performance.now() - t;
    const pid = [...childRss().keys()].find((p) => !before.has(p));
    rows.push({ model: name, file_mb: +(statSync(path.join(e.dir, "model.onnx")).size / 1e6).toFixed(1), first_embed_ms: Math.round(first), child_rss_loaded_mb: Math.round(pid ? childRss().get(pid) ?? 0 : 0), child_rss_after_mb: 0, query_p50_ms: 0, query_p95_ms: 0, per_100_statements_ms: 0, pid, times: [] });
  }
  // Queries, interleaved.
  for (let i = 0; i < queries; i++) {
    const q = `where does the service number ${i} check the token before writing its result`;
    for (const [j, [, e]] of models.entries()) {
      const t = performance.now();
      await e.embed(identity, [q]);
      rows[j]!.times.push(performance.now() - t);
    }
  }
  // Statements in batches of 50, the models taking turns batch by batch.
  const statements = DEV_CONVERSATIONS.flatMap(observationsOf).map((o) => o.text).slice(0, 300);
  const spent = models.map(() => 0);
  for (let i = 0; i < statements.length; i += 50) {
    for (const [j, [, e]] of models.entries()) {
      const t = performance.now();
      await e.embed(identity, statements.slice(i, i + 50));
      spent[j]! += performance.now() - t;
    }
  }
  for (const j of models.keys()) {
    const r = rows[j]!;
    r.per_100_statements_ms = Math.round((spent[j]! / statements.length) * 100);
    r.query_p50_ms = +pct(r.times, 50).toFixed(1);
    r.query_p95_ms = +pct(r.times, 95).toFixed(1);
    r.child_rss_after_mb = Math.round(r.pid ? childRss().get(r.pid) ?? 0 : 0);
  }
  return { load: loadavg().map((l) => l.toFixed(2)).join(" "), rows: rows.map(({ pid: _p, times: _t, ...r }) => r) };
}

export function printModelCost(r: { load: string; rows: ModelCost[] }): void {
  console.log(`\n== sentence model cost (load average at the end ${r.load}; one intra-op thread each; queries interleaved)`);
  console.table(r.rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printModelCost(await benchModelCost(Number(process.env.BENCH_MODEL_QUERIES ?? 300)));
  process.exit(0);
}

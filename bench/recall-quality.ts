/**
 * Recall quality on questions people ask (`BENCH_ONLY=recall-quality npm run bench`).
 *
 * The corpus is this repository's own code graph, built as an ingest job
 * builds it (walk → parse → buildCodeGraph, doc comments included) from the
 * checkout's files and stored in the embedded default's repository store:
 * PostgreSQL tables on PGlite (`RQ_STORE=memory` uses the in-process adapter
 * instead, for a quick run); every question goes through
 * `RepositoryMemory.recall`, the ranking `POST …/memory/recall` and the AI
 * tasks' retrieval use, with the store's own candidate queries and its
 * in-SQL dense search. The questions
 * (bench/recall-quality-set.ts) are written the way a developer or an agent
 * asks — paraphrases and synonyms, rarely the identifier's own words — each
 * with the symbols or files that answer it.
 *
 * Scoring: a returned fact answers when its subject or object is one of the
 * question's expected nodes. hit@k: an answering fact among the first k;
 * MRR: the mean of 1/rank of the first answering fact (0 beyond 10).
 * Rows: BM25 alone, dense alone, fused, for feature hashing and for the
 * sentence model (each embeds every node first, through `embedMissing` and
 * `setEmbeddings` as the embedding job does).
 *
 * Fusion weight: the dense list's RRF weight is swept on the dev half
 * (even-numbered questions) by re-fusing the two real-path lists, and the
 * weight each embedder ships with (`denseWeight`) is the dev sweep's best;
 * the held-out half (odd) is reported for the shipped weight, on the real path.
 * A question whose expected node is not in the graph (a renamed symbol) is
 * reported, not scored.
 */
import path from "node:path";
import { ManualClock } from "../core/clock";
import { makeIdentity } from "../core/execution/identity";
import { buildCodeGraph } from "../core/ingest/graph";
import { parseChanged } from "../core/ingest/incremental";
import { walkSnapshot } from "../core/ingest/walk";
import { LocalHashEmbedder, type Embedder } from "../core/memory/embedder";
import { RepositoryMemory } from "../core/memory/repository";
import { SentenceModelEmbedder } from "../db/embedding/sentence-model";
import { InMemoryRepositoryStore } from "../db/graph/memory/repository-store";
import { PostgresRepositoryStore } from "../db/graph/postgres/repository-store";
import { migrateToLatest, openDatabase } from "../db/database";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import { MAX_RECALL_LIMIT } from "../core/limits";
import { rrf } from "../core/recall/rrf";
import { QUESTIONS } from "./recall-quality-set";

const REPO = "bench-recall-quality";
const ROOT = path.resolve(import.meta.dirname, "..");
const WEIGHTS = [0.5, 1, 1.5, 2, 3, 4];
const t0 = performance.now();
const note = (msg: string) => process.stderr.write(`[recall-quality ${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);

export interface QualityRow {
  embedder: string;
  ranking: string;
  split: string;
  n: number;
  hit1: number;
  hit5: number;
  hit10: number;
  mrr: number;
}

export interface RecallQualityBench {
  store: string;
  facts: number;
  nodes: number;
  questions: number;
  unlabelled: string[];
  rows: QualityRow[];
  sweep: Array<{ embedder: string; weight: number; dev_hit5: number; dev_mrr: number }>;
  chosen: Record<string, number>;
}

/** The rank (1-based) of the first fact touching an expected node, or 0. */
function firstHit(results: Array<{ subject: { name: string }; object: { name: string } }>, expected: ReadonlySet<string>): number {
  const i = results.findIndex((r) => expected.has(r.subject.name) || expected.has(r.object.name));
  return i < 0 ? 0 : i + 1;
}

export function score(ranks: number[]): Omit<QualityRow, "embedder" | "ranking" | "split"> {
  const n = ranks.length;
  const at = (k: number) => +(ranks.filter((r) => r > 0 && r <= k).length / n).toFixed(3);
  const mrr = +(ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / n).toFixed(3);
  return { n, hit1: at(1), hit5: at(5), hit10: at(10), mrr };
}

/**
 * The embedder with a fixed fusion weight (the sweep's candidates), remembering query vectors so the
 * sweep does not embed each question once per weight (every recall still embeds its query once).
 */
function weighted(e: Embedder, w: number, memo: Map<string, number[]>): Embedder {
  return {
    model: e.model,
    dim: e.dim,
    denseWeight: w,
    embed: async (identity, texts, signal) => {
      const todo = texts.filter((t) => !memo.has(t));
      if (todo.length > 0) (await e.embed(identity, todo, signal)).forEach((v, i) => memo.set(todo[i]!, v));
      return texts.map((t) => memo.get(t)!);
    },
  };
}

export async function benchRecallQuality(): Promise<RecallQualityBench> {
  const clock = new ManualClock(Date.UTC(2026, 11, 3));
  const identity = makeIdentity({ tenant_id: "org-bench", subject_id: "usr-bench", session_id: "bench-rq", parent_session_id: "bench-rq" });
  const walk = await walkSnapshot(ROOT);
  const parsed = await parseChanged(walk.files, new Map());
  const triples = await buildCodeGraph(REPO, "codesynapse", parsed.files, null);
  const names = new Set(triples.flatMap((t) => [t.subject.name, t.object.name]));
  const labelled = QUESTIONS.map(([q, ...expected], i) => ({ i, q, expected: new Set(expected), missing: expected.filter((e) => !names.has(e)) }));
  const unlabelled = labelled.filter((x) => x.missing.length === x.expected.size).map((x) => `${x.q} → ${x.missing.join(", ")}`);
  const usable = labelled.filter((x) => x.missing.length < x.expected.size);

  const pglite = process.env.RQ_STORE !== "memory" ? await openDatabase({}) : undefined;
  try {
    if (pglite) await migrateToLatest(pglite.db);
    const store: RepositoryMemoryStore = pglite ? new PostgresRepositoryStore(pglite.db) : new InMemoryRepositoryStore();
    note(`${store.kind === "postgres" ? "PGlite" : "in-process"} store: writing ${triples.length} facts`);
    for (let i = 0; i < triples.length; i += 500) await store.upsertFacts(REPO, triples.slice(i, i + 500), { session_id: null }, Date.now());
    const rows: QualityRow[] = [];
    const sweep: RecallQualityBench["sweep"] = [];
    const chosen: Record<string, number> = {};
    const all: Record<string, [string, Embedder]> = {
      hashing: ["hashing (local-hash-v3-256)", new LocalHashEmbedder(256)],
      model: ["model (MiniLM-L6 int8)", new SentenceModelEmbedder()],
    };
    // RQ_EMBEDDERS=model,hashing: which embedders, in which order.
    const embedders = (process.env.RQ_EMBEDDERS ?? "hashing,model").split(",").map((k) => all[k.trim()]!);
    for (const [label, embedder] of embedders) {
      // Embed every node for this model, as the embedding job does (a model change re-embeds everything).
      const memory = new RepositoryMemory({ repo: store, clock, embedder });
      const memo = new Map<string, number[]>();
      const shipped = embedder.denseWeight ?? 1;
      const recaller = (w: number) => new RepositoryMemory({ repo: store, clock, embedder: weighted(embedder, w, memo) });
      note(`${label}: embedding ${names.size} nodes`);
      for (;;) {
        const e = await memory.embedMissing(identity, REPO, 256, 4);
        await store.setEmbeddings(REPO, e.model, e.vectors);
        if (!e.remaining) break;
      }
      /** Real-path recall of every question in one mode: the rank of the first answer, and the ranked fact IDs. */
      const run = async (mode: "lexical" | "dense" | "fused", m: RepositoryMemory, limit: number) => {
        const ranks: number[] = [];
        const lists: Array<Array<{ id: string; hit: boolean }>> = [];
        for (const x of usable) {
          const results = (await m.recall(identity, REPO, { query: x.q, limit, mode })).results;
          ranks.push(firstHit(results.slice(0, 10), x.expected));
          lists.push(results.map((r) => ({ id: r.fact_id, hit: x.expected.has(r.subject.name) || x.expected.has(r.object.name) })));
        }
        return { ranks, lists };
      };
      const dev = (r: number[]) => r.filter((_, j) => usable[j]!.i % 2 === 0);
      const held = (r: number[]) => r.filter((_, j) => usable[j]!.i % 2 === 1);
      note(`${label}: BM25`);
      const lexical = await run("lexical", recaller(shipped), MAX_RECALL_LIMIT);
      note(`${label}: dense`);
      const dense = await run("dense", recaller(shipped), MAX_RECALL_LIMIT);
      note(`${label}: fused`);
      const fused = await run("fused", recaller(shipped), 10);
      // The sweep re-fuses the two real-path lists (top 50 each) with rrf() at each weight: the
      // served fusion minus BM25's IDF over the union of candidates (too slow to re-run per weight here).
      let best = { w: shipped, hit5: -1, mrr: -1 };
      for (const w of WEIGHTS) {
        const ranks = usable.map((_, j) => {
          const hits = new Set([...lexical.lists[j]!, ...dense.lists[j]!].filter((f) => f.hit).map((f) => f.id));
          const merged = rrf([lexical.lists[j]!, dense.lists[j]!], { limit: 10, weights: [1, w] });
          const i = merged.findIndex((r) => hits.has(r.id));
          return i < 0 ? 0 : i + 1;
        });
        const s = score(dev(ranks));
        sweep.push({ embedder: label, weight: w, dev_hit5: s.hit5, dev_mrr: s.mrr });
        if (s.hit5 > best.hit5 || (s.hit5 === best.hit5 && s.mrr > best.mrr)) best = { w, hit5: s.hit5, mrr: s.mrr };
      }
      chosen[label] = best.w;
      for (const [split, pick] of [
        ["all", (r: number[]) => r],
        ["dev", dev],
        ["held-out", held],
      ] as const) {
        rows.push({ embedder: label, ranking: "BM25", split, ...score(pick(lexical.ranks)) });
        rows.push({ embedder: label, ranking: "dense", split, ...score(pick(dense.ranks)) });
        rows.push({ embedder: label, ranking: `fused (dense weight ${shipped})`, split, ...score(pick(fused.ranks)) });
      }
      // Each embedder's rows as soon as they are known (a long run on a slow store reports as it goes).
      note(`${label}: done`);
      console.log(JSON.stringify({ embedder: label, rows: rows.filter((r) => r.embedder === label), sweep: sweep.filter((w) => w.embedder === label) }));
    }
    return { store: pglite ? "PGlite (PostgreSQL tables)" : "in-process", facts: triples.length, nodes: names.size, questions: usable.length, unlabelled, rows, sweep, chosen };
  } finally {
    await pglite?.close();
  }
}

export function printRecallQuality(r: RecallQualityBench): void {
  console.log(`\n== recall quality: this repository's code graph (${r.facts} facts, ${r.nodes} nodes), ${r.questions} labelled questions, durable recall (RepositoryMemory.recall) on the ${r.store} store`);
  if (r.unlabelled.length > 0) console.log(`(not scored, expected node no longer in the graph: ${r.unlabelled.length})\n  ${r.unlabelled.join("\n  ")}`);
  console.table(r.rows);
  // Fused must not lose to the better of its two parts at hit@5 on the held-out half.
  for (const e of new Set(r.rows.map((x) => x.embedder))) {
    const held = r.rows.filter((x) => x.embedder === e && x.split === "held-out");
    const of = (p: string) => held.find((x) => x.ranking.startsWith(p))!.hit5;
    const best = Math.max(of("BM25"), of("dense"));
    console.log(`held-out hit@5, ${e}: BM25 ${of("BM25")}, dense ${of("dense")}, fused ${of("fused")} — ${of("fused") >= best ? "fused ≥ the better part" : "FUSED BELOW THE BETTER PART"}`);
  }
  console.log("== dense RRF weight sweep (dev half); best per embedder:", r.chosen);
  console.table(r.sweep);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRecallQuality(await benchRecallQuality());
  process.exit(0);
}

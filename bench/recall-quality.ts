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
import { candidateEmbedders } from "./candidate-models";
import { InMemoryRepositoryStore } from "../db/graph/memory/repository-store";
import { PostgresRepositoryStore } from "../db/graph/postgres/repository-store";
import { migrateToLatest, openDatabase } from "../db/database";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import { MAX_RECALL_LIMIT } from "../core/limits";
import { DEFAULT_FUSION, diversify, fuseRankings, type Fusion } from "../core/recall/recall";
import { QUESTIONS } from "./recall-quality-set";

const REPO = "bench-recall-quality";
const ROOT = path.resolve(import.meta.dirname, "..");
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
  sweep: Array<{ embedder: string; k: number; weight: number; per_node: number; dev_hit1: number; dev_hit5: number; dev_mrr: number }>;
  chosen: Record<string, Fusion & { dev: Omit<QualityRow, "embedder" | "ranking" | "split">; held_out: Omit<QualityRow, "embedder" | "ranking" | "split"> }>;
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
 * The embedder with fixed fusion settings (the sweep's candidates), remembering query vectors so the
 * sweep does not embed each question once per setting (every recall still embeds its query once).
 */
function withFusion(e: Embedder, fusion: Fusion, memo: Map<string, number[]>): Embedder {
  return {
    model: e.model,
    dim: e.dim,
    fusion: { code: fusion, conversation: fusion },
    embed: async (identity, texts, signal) => {
      const todo = texts.filter((t) => !memo.has(t));
      if (todo.length > 0) (await e.embed(identity, todo, signal)).forEach((v, i) => memo.set(todo[i]!, v));
      return texts.map((t) => memo.get(t)!);
    },
  };
}

/** One question's real-path list: fact IDs best first, with their scores, endpoints and whether they answer. */
export type ListedFact = { id: string; score: number; nodes: [string, string]; names: [string, string]; hit: boolean };

/**
 * Re-fuses a question's two real-path lists with the served fusion (weighted RRF, then the
 * per-node cap): the items, best first, at most `limit`.
 */
export function refuse<T extends { id: string; score: number; nodes: readonly string[] }>(lexical: T[], dense: T[], fusion: Fusion, limit: number): T[] {
  const byId = new Map([...lexical, ...dense].map((f) => [f.id, f]));
  return diversify(fuseRankings(lexical, dense, limit, fusion), (id) => byId.get(id)?.nodes ?? [], fusion.perNode).map((r) => byId.get(r.id)!);
}

/** The 1-based rank of the first answering fact among the first 10 of lexical ⊕ dense re-fused with `fusion`, or 0. */
export function refusedRank(lexical: ListedFact[], dense: ListedFact[], fusion: Fusion): number {
  const i = refuse(lexical, dense, fusion, 50).slice(0, 10).findIndex((f) => f.hit);
  return i < 0 ? 0 : i + 1;
}

/**
 * Whether fusion figures `a` beat `b` on n questions: hit@5 decides when they differ by more than
 * one question, MRR (which counts every rank up to 10, so it is the steadier figure) otherwise.
 */
export function betterFusion(a: { hit5: number; mrr: number }, b: { hit5: number; mrr: number }, n: number): boolean {
  if (Math.abs(a.hit5 - b.hit5) > 1 / n + 1e-9) return a.hit5 > b.hit5;
  return a.mrr > b.mrr;
}

/**
 * The grid's cells ordered by their neighbourhood: each cell's dev hit@5 and MRR averaged with the
 * cells one step away in k and in dense weight (same cap). A single cell that a question or two
 * lifts above its neighbours is noise on sets this size; a region that is good holds.
 */
export function bySmoothedDev<T extends { f: Fusion; s: { hit5: number; mrr: number } }>(cells: T[]): T[] {
  const at = (k: number, w: number, cap: number) => cells.find((c) => c.f.k === k && c.f.denseWeight === w && c.f.perNode === cap);
  const near = (xs: readonly number[], x: number) => xs.filter((_, i) => Math.abs(i - xs.indexOf(x)) <= 1);
  const smooth = (c: T) => {
    const around = near(SWEEP.k, c.f.k).flatMap((k) => near(SWEEP.denseWeight, c.f.denseWeight).map((w) => at(k, w, c.f.perNode))).filter((x): x is T => !!x);
    const mean = (f: (x: T) => number) => around.reduce((sum, x) => sum + f(x), 0) / around.length;
    return { hit5: mean((x) => x.s.hit5), mrr: mean((x) => x.s.mrr) };
  };
  const scored = cells.map((c) => ({ c, m: smooth(c) }));
  return scored.sort((a, b) => b.m.hit5 - a.m.hit5 || b.m.mrr - a.m.mrr).map((x) => x.c);
}

/** The dev sweep's grid: RRF constant × dense weight × per-node cap. */
export const SWEEP = {
  k: [5, 10, 20, 30, 60],
  denseWeight: [0.5, 1, 1.5, 2, 3, 4, 6],
  perNode: [0, 1, 2, 3],
};

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
    const chosen: RecallQualityBench["chosen"] = {};
    const all: Record<string, [string, Embedder]> = {
      hashing: ["hashing (local-hash-v3-256)", new LocalHashEmbedder(256)],
      model: ["model (MiniLM-L6 int8)", new SentenceModelEmbedder()],
      ...candidateEmbedders(QUESTIONS.map(([q]) => q)),
    };
    // RQ_EMBEDDERS=model,hashing: which embedders, in which order.
    const embedders = (process.env.RQ_EMBEDDERS ?? "hashing,model").split(",").map((k) => all[k.trim()]!);
    for (const [label, embedder] of embedders) {
      // Embed every node for this model, as the embedding job does (a model change re-embeds everything).
      const memory = new RepositoryMemory({ repo: store, clock, embedder });
      const memo = new Map<string, number[]>();
      const shipped = embedder.fusion?.code ?? DEFAULT_FUSION;
      const recaller = (f: Fusion) => new RepositoryMemory({ repo: store, clock, embedder: withFusion(embedder, f, memo) });
      note(`${label}: embedding ${names.size} nodes`);
      for (;;) {
        const e = await memory.embedMissing(identity, REPO, 256, 4);
        await store.setEmbeddings(REPO, e.model, e.vectors);
        if (!e.remaining) break;
      }
      /** Real-path recall of every question in one mode: the rank of the first answer, and the ranked fact IDs. */
      const run = async (mode: "lexical" | "dense" | "fused", m: RepositoryMemory, limit: number, qs = usable) => {
        const ranks: number[] = [];
        const lists: ListedFact[][] = [];
        for (const x of qs) {
          const results = (await m.recall(identity, REPO, { query: x.q, limit, mode })).results;
          ranks.push(firstHit(results.slice(0, 10), x.expected));
          lists.push(results.map((r) => ({ id: r.fact_id, score: r.score, nodes: [r.subject.id, r.object.id], names: [r.subject.name, r.object.name], hit: x.expected.has(r.subject.name) || x.expected.has(r.object.name) })));
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
      // RQ_DEV_MISSES=N: the first N dev questions whose first fused fact does not answer, with the top 3.
      for (const x of usable.filter((u, j) => u.i % 2 === 0 && fused.ranks[j] !== 1).slice(0, Number(process.env.RQ_DEV_MISSES ?? 0))) {
        const top = (await recaller(shipped).recall(identity, REPO, { query: x.q, limit: 3 })).results;
        console.error(`MISS ${x.q}  → ${[...x.expected].join(", ")}\n  ${top.map((r) => `${r.subject.name} ${r.predicate} ${r.object.name.slice(0, 80)}`).join("\n  ")}`);
      }
      // The sweep re-fuses the two real-path lists (top 50 each) with the served fusion at each
      // setting: the served fusion, except that BM25's IDF is over the lexical candidates rather than
      // the union of both lists' (re-running recall per setting is too slow). It shortlists the
      // RQ_SHORTLIST (6) settings best on dev by their neighbourhood (bySmoothedDev); the real path then
      // decides among them on dev (betterFusion).
      const ranked: Array<{ f: Fusion; s: ReturnType<typeof score> }> = [];
      for (const k of SWEEP.k)
        for (const w of SWEEP.denseWeight)
          for (const perNode of SWEEP.perNode) {
            const f = { k, denseWeight: w, perNode };
            const s = score(dev(usable.map((_, j) => refusedRank(lexical.lists[j]!, dense.lists[j]!, f))));
            sweep.push({ embedder: label, k, weight: w, per_node: perNode, dev_hit1: s.hit1, dev_hit5: s.hit5, dev_mrr: s.mrr });
            ranked.push({ f, s });
          }
      const devQs = usable.filter((x) => x.i % 2 === 0);
      let best: { f: Fusion; dev: ReturnType<typeof score> } | undefined;
      for (const { f } of bySmoothedDev(ranked).slice(0, Number(process.env.RQ_SHORTLIST ?? 6))) {
        const real = score((await run("fused", recaller(f), 10, devQs)).ranks);
        note(`${label}: real path on dev, k ${f.k} weight ${f.denseWeight} per node ${f.perNode}: hit@1 ${real.hit1} hit@5 ${real.hit5} MRR ${real.mrr}`);
        if (!best || betterFusion(real, best.dev, real.n)) best = { f, dev: real };
      }
      const heldQs = usable.filter((x) => x.i % 2 === 1);
      chosen[label] = { ...best!.f, dev: best!.dev, held_out: score((await run("fused", recaller(best!.f), 10, heldQs)).ranks) };
      for (const [split, pick] of [
        ["all", (r: number[]) => r],
        ["dev", dev],
        ["held-out", held],
      ] as const) {
        rows.push({ embedder: label, ranking: "BM25", split, ...score(pick(lexical.ranks)) });
        rows.push({ embedder: label, ranking: "dense", split, ...score(pick(dense.ranks)) });
        rows.push({ embedder: label, ranking: `fused (k ${shipped.k}, weight ${shipped.denseWeight}, per node ${shipped.perNode})`, split, ...score(pick(fused.ranks)) });
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
  console.log("== fusion sweep (dev half: RRF k × dense weight × per-node cap, shortlisted re-fused, decided on the real path); the choice per embedder, real path:");
  console.table(Object.entries(r.chosen).flatMap(([embedder, c]) => [{ embedder, k: c.k, weight: c.denseWeight, per_node: c.perNode, split: "dev", ...c.dev }, { embedder, k: c.k, weight: c.denseWeight, per_node: c.perNode, split: "held-out", ...c.held_out }]));
  if (process.env.RQ_SWEEP_ALL) console.table(r.sweep);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRecallQuality(await benchRecallQuality());
  process.exit(0);
}

/**
 * Recall benchmark.
 *  1. Latency: p50/p95 of session recall (HTTP-less, engine → store → local
 *     vector index) on a namespace filled to its limits (512 facts, entities
 *     up to the 24 KiB snapshot), on PGlite and on PostgreSQL
 *     (TEST_DATABASE_URL; skipped with a note when unset).
 *  2. Quality: recall@5 on the labelled set (bench/recall-labelled.ts) for
 *     BM25 alone, dense alone and fused (RRF), through the same engine path.
 * Run alone: npx tsx bench/recall.ts (BENCH_RECALL_LATENCY=0 skips the latency
 * part; BENCH_RECALL_HELDOUT=0 hides the held-out split, as used while tuning).
 */
import pg from "pg";
import { randomBytes } from "node:crypto";
import { ManualClock } from "../core/clock";
import { MAX_FACTS_PER_NAMESPACE } from "../core/limits";
import { LocalHashEmbedder, type Embedder } from "../core/memory/embedder";
import { SentenceModelEmbedder } from "../db/embedding/sentence-model";
import { SessionMemoryEngine } from "../core/memory/engine";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import { InMemorySessionStore } from "../db/graph/memory/session-store";
import { PostgresSessionStore } from "../db/graph/postgres/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../db/vector/local";
import { PostgresVectorRows } from "../db/vector/local-postgres";
import { percentile, scopeFor, timeFullNamespaceRecall } from "./full-namespace";
import { distractors, FACTS, generatedQueries, QUERIES, type LabelledQuery, type Triple } from "./recall-labelled";

const LATENCY_QUERIES = Number(process.env.BENCH_RECALL_QUERIES ?? 200);

export interface Quality {
  set: string;
  facts: number;
  queries: number;
  k: number;
  bm25: number;
  dense: number;
  fused: number;
  byStyle: Record<string, { bm25: number; dense: number; fused: number; n: number }>;
}

export interface RecallBench {
  latency: Array<
    | { store: string; embedder: string; facts: number; entities: number; queries: number; p50_ms: number; p95_ms: number; lexical_p50_ms: number; lexical_p95_ms: number; p95_vs_lexical: number }
    | { store: string; embedder?: string; skipped: string }
  >;
  quality: Quality[];
}

/** Fused (BM25 + dense + RRF) and lexical-only recall on the same store and namespace, interleaved. */
async function latencyOn(name: string, engine: SessionMemoryEngine, clock: ManualClock, embedder: string) {
  const { facts, entities, byMode } = await timeFullNamespaceRecall(engine, clock.now().getTime(), LATENCY_QUERIES, ["fused", "lexical"]);
  const fused = byMode.get("fused")!;
  const lexical = byMode.get("lexical")!;
  const p = (t: number[], q: number) => +percentile(t, q).toFixed(2);
  return {
    store: name,
    embedder,
    facts,
    entities,
    queries: fused.length,
    p50_ms: p(fused, 50),
    p95_ms: p(fused, 95),
    lexical_p50_ms: p(lexical, 50),
    lexical_p95_ms: p(lexical, 95),
    p95_vs_lexical: +(percentile(fused, 95) / percentile(lexical, 95)).toFixed(2),
  };
}

async function openPostgres(): Promise<{ d: OpenDatabase; cleanup: () => Promise<void> } | null> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) return null;
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
  const d = await openDatabase({ url, schema, poolSize: 4 });
  await migrateToLatest(d.db);
  return {
    d,
    cleanup: async () => {
      await d.close();
      const c2 = new pg.Client({ connectionString: url });
      await c2.connect();
      await c2.query(`drop schema if exists ${schema} cascade`);
      await c2.end();
    },
  };
}

async function quality_(set: string, facts: Triple[], queries: LabelledQuery[]): Promise<Quality> {
  const clock = new ManualClock(Date.UTC(2026, 11, 2));
  const engine = new SessionMemoryEngine({ store: new InMemorySessionStore(), clock, vectors: new LocalVectorIndex(new MemoryVectorRows()), embedder: new LocalHashEmbedder() });
  const scope = scopeFor(clock.now().getTime(), "quality");
  const written = await engine.upsert(scope, { triples: facts.map(([subject, subject_type, predicate, object, object_type]) => ({ subject, subject_type, predicate, object, object_type })) });
  const ids = written.facts.map((f) => f.fact_id);
  const k = 5;
  const modes = ["lexical", "dense", "fused"] as const;
  const total = { lexical: 0, dense: 0, fused: 0 };
  const byStyle: Quality["byStyle"] = {};
  for (const q of queries) {
    const s = (byStyle[q.style] ??= { bm25: 0, dense: 0, fused: 0, n: 0 });
    s.n++;
    for (const mode of modes) {
      const r = await engine.recall(scope, { query: q.query, limit: k, mode });
      const got = new Set(r.results.map((x) => x.fact_id));
      const hit = q.expected.filter((i) => got.has(ids[i]!)).length / q.expected.length;
      total[mode] += hit;
      s[mode === "lexical" ? "bm25" : mode] += hit;
    }
  }
  const avg = (x: number, n: number) => +(x / n).toFixed(3);
  for (const s of Object.values(byStyle)) {
    s.bm25 = avg(s.bm25, s.n);
    s.dense = avg(s.dense, s.n);
    s.fused = avg(s.fused, s.n);
  }
  return { set, facts: written.facts.length, queries: queries.length, k, bm25: avg(total.lexical, queries.length), dense: avg(total.dense, queries.length), fused: avg(total.fused, queries.length), byStyle };
}

/** Session recall latency with each embedder: feature hashing, and the sentence model (the embedded default). */
export async function latencyAll(latency: RecallBench["latency"]): Promise<void> {
  for (const embedder of [new LocalHashEmbedder(), new SentenceModelEmbedder()]) await latencyWith(latency, embedder);
}

async function latencyWith(latency: RecallBench["latency"], embedder: Embedder): Promise<void> {
  const clock = new ManualClock(Date.now());
  const lite = await openDatabase({});
  try {
    await migrateToLatest(lite.db);
    latency.push(await latencyOn("pglite", new SessionMemoryEngine({ store: new PostgresSessionStore(lite.db), clock, vectors: new LocalVectorIndex(new PostgresVectorRows(lite.db, { processCache: true })), embedder }), clock, embedder.model));
  } finally {
    await lite.close();
  }
  const server = await openPostgres().catch((err: Error) => {
    latency.push({ store: "postgres", embedder: embedder.model, skipped: err.message });
    return null;
  });
  if (server) {
    try {
      latency.push(await latencyOn("postgres", new SessionMemoryEngine({ store: new PostgresSessionStore(server.d.db), clock, vectors: new LocalVectorIndex(new PostgresVectorRows(server.d.db)), embedder }), clock, embedder.model));
    } finally {
      await server.cleanup();
    }
  } else if (!latency.some((l) => l.store === "postgres" && l.embedder === embedder.model)) latency.push({ store: "postgres", embedder: embedder.model, skipped: "TEST_DATABASE_URL is not set" });
}

export async function benchRecall(): Promise<RecallBench> {
  const latency: RecallBench["latency"] = [];
  if (process.env.BENCH_RECALL_LATENCY !== "0") await latencyAll(latency);
  const full = [...FACTS];
  const seen = new Set(full.map((f) => `${f[0]}|${f[2]}|${f[3]}`.toLowerCase()));
  for (const d of distractors(2 * MAX_FACTS_PER_NAMESPACE)) {
    if (full.length >= MAX_FACTS_PER_NAMESPACE) break;
    const k = `${d[0]}|${d[2]}|${d[3]}`.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    full.push(d);
  }
  const generated = generatedQueries();
  const groups: Array<[string, LabelledQuery[]]> = [
    ["hand-written queries", QUERIES],
    ["generated queries, dev split", generated.filter((q) => q.split === "dev")],
  ];
  if (process.env.BENCH_RECALL_HELDOUT !== "0") groups.push(["generated queries, held-out split", generated.filter((q) => q.split === "heldout")]);
  const quality: Quality[] = [];
  for (const [factSet, facts] of [["labelled facts only", FACTS], ["labelled + distractors (full namespace)", full]] as const) {
    for (const [group, queries] of groups) quality.push(await quality_(`${factSet}; ${group}`, [...facts], queries));
  }
  return { latency, quality };
}

export function printRecall(r: RecallBench): void {
  console.log("\n== session recall latency (namespace at its limits, limit=10)");
  console.table(r.latency);
  for (const q of r.quality) {
    console.log(`== recall@${q.k}, ${q.set}: ${q.facts} facts, ${q.queries} queries`);
    console.table({ all: { bm25: q.bm25, dense: q.dense, fused: q.fused, n: q.queries }, ...q.byStyle });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRecall(await benchRecall());
}

/**
 * Store benchmark: session recall p50/p95 on a full namespace
 * (512 facts, the MEM-3 limit) for every available SessionMemoryStore, with
 * no vectors (lexical only), the store's local exact vectors, and Milvus —
 * side by side, in one run, through the same engine path (embed query →
 * vector search → fresh authoritative snapshot → recheck → BM25 + RRF).
 *
 *   npx tsx bench/stores.ts
 *
 * Servers come from the environment, as in the tests: TEST_DATABASE_URL (or
 * DATABASE_URL), NEO4J_URL (+ NEO4J_USER / NEO4J_PASSWORD), MILVUS_URL. A
 * store or index that is not reachable gets a "skipped" cell with the reason.
 * BENCH_STORES_QUERIES sets the number of timed recalls per cell (default 200).
 *
 * HOOK: another store (HugeGraph) joins the table by pushing one more entry
 * onto STORES below — `{ name, open }` returning its SessionMemoryStore, its
 * own "local" vector index and a close function. Nothing else changes.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { ManualClock } from "../core/clock";
import { MAX_FACTS_PER_NAMESPACE } from "../core/limits";
import { LocalHashEmbedder } from "../core/memory/embedder";
import { SessionMemoryEngine } from "../core/memory/engine";
import type { SessionMemoryStore } from "../core/memory/store";
import type { SessionVectorIndex } from "../core/memory/vector-index";
import { migrateToLatest, openDatabase } from "../db/database";
import { InMemorySessionStore } from "../db/graph/memory/session-store";
import { openNeo4j } from "../db/graph/neo4j/driver";
import { Neo4jSessionStore } from "../db/graph/neo4j/session-store";
import { Neo4jVectorIndex } from "../db/graph/neo4j/vector-index";
import { PostgresSessionStore } from "../db/graph/postgres/session-store";
import { HugeGraphClient } from "../db/graph/hugegraph/client";
import { HugeGraphSessionStore } from "../db/graph/hugegraph/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../db/vector/local";
import { PostgresVectorRows } from "../db/vector/local-postgres";
import { MilvusVectorIndex } from "../db/vector/milvus";
import { percentile, timeFullNamespaceRecall } from "./full-namespace";

const QUERIES = Number(process.env.BENCH_STORES_QUERIES ?? 200);

export interface OpenStore {
  store: SessionMemoryStore;
  /** The store's own exact-similarity vectors (VECTOR_INDEX=local with this store). */
  local: SessionVectorIndex;
  close(): Promise<void>;
}

export interface StoreUnderTest {
  name: string;
  /** Opens the store, or says why it cannot (`{ skipped }`). */
  open(): Promise<OpenStore | { skipped: string }>;
}

export const STORES: StoreUnderTest[] = [
  {
    name: "memory",
    open: async () => ({ store: new InMemorySessionStore(), local: new LocalVectorIndex(new MemoryVectorRows()), close: async () => undefined }),
  },
  {
    name: "pglite",
    open: async () => {
      const d = await openDatabase({});
      await migrateToLatest(d.db);
      return { store: new PostgresSessionStore(d.db), local: new LocalVectorIndex(new PostgresVectorRows(d.db)), close: () => d.close() };
    },
  },
  {
    name: "postgres",
    open: async () => {
      const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
      if (!url) return { skipped: "TEST_DATABASE_URL is not set" };
      const schema = `bench_${randomBytes(4).toString("hex")}`;
      const admin = async (q: string) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          await c.query(q);
        } finally {
          await c.end();
        }
      };
      await admin(`create schema ${schema}`);
      const d = await openDatabase({ url, schema, poolSize: 4 });
      await migrateToLatest(d.db);
      return {
        store: new PostgresSessionStore(d.db),
        local: new LocalVectorIndex(new PostgresVectorRows(d.db)),
        close: async () => {
          await d.close();
          await admin(`drop schema if exists ${schema} cascade`);
        },
      };
    },
  },
  {
    name: "neo4j",
    open: async () => {
      const url = process.env.NEO4J_URL;
      if (!url) return { skipped: "NEO4J_URL is not set" };
      const driver = openNeo4j({ url, user: process.env.NEO4J_USER, password: process.env.NEO4J_PASSWORD });
      const store = new Neo4jSessionStore(driver);
      await store.ensureSchema();
      return { store, local: new Neo4jVectorIndex(driver), close: () => driver.close() };
    },
  },
  {
    name: "hugegraph",
    open: async () => {
      const url = process.env.HUGEGRAPH_URL;
      if (!url) return { skipped: "HUGEGRAPH_URL is not set" };
      const store = new HugeGraphSessionStore(new HugeGraphClient({ url, graph: process.env.HUGEGRAPH_GRAPH }));
      await store.ensureSchema();
      // HugeGraph keeps no vectors itself: VECTOR_INDEX=local with it is the exact index (rows in process memory here).
      return { store, local: new LocalVectorIndex(new MemoryVectorRows()), close: async () => undefined };
    },
  },
];


/** Fills a fresh namespace, warms up, then times `QUERIES` recalls. Returns "p50 / p95" in ms. */
/** Prints the first failure of a vector index (its cause), so a degraded cell can be diagnosed. */
function reportingFailures(v: SessionVectorIndex): SessionVectorIndex {
  let told = false;
  const tell = (err: unknown) => {
    if (!told) console.error(`[bench/stores] ${v.kind} failed: ${String((err as Error).message)} / ${String(((err as Error).cause as Error | undefined)?.message ?? "")}`);
    told = true;
    throw err;
  };
  return {
    kind: v.kind,
    upsert: (r) => v.upsert(r).catch(tell),
    search: (k, q, o) => v.search(k, q, o).catch(tell),
    deleteScope: (k) => v.deleteScope(k).catch(tell),
    deleteSession: (t, s, b) => v.deleteSession(t, s, b).catch(tell),
    deleteExpired: (n, b) => v.deleteExpired(n, b).catch(tell),
  };
}

async function cell(store: SessionMemoryStore, index: SessionVectorIndex | undefined): Promise<string> {
  const vectors = index ? reportingFailures(index) : undefined;
  const clock = new ManualClock(Date.now());
  const warnings = new Map<string, number>();
  const onWarning = (event: string, code: string) => warnings.set(`${event}:${code}`, (warnings.get(`${event}:${code}`) ?? 0) + 1);
  const engine = new SessionMemoryEngine({ store, clock, vectors, embedder: vectors ? new LocalHashEmbedder() : undefined, onWarning });
  const { facts, times } = await timeFullNamespaceRecall(engine, clock.now().getTime(), QUERIES);
  if (facts !== MAX_FACTS_PER_NAMESPACE) throw new Error(`namespace holds ${facts} facts`);
  // A cell whose vector writes or searches failed measured lexical recall: say so instead of reporting it as vector recall.
  const degraded = warnings.size > 0 ? ` (degraded: ${[...warnings].map(([k, n]) => `${k} x${n}`).join(", ")})` : "";
  const result = `${percentile(times, 50).toFixed(2)} / ${percentile(times, 95).toFixed(2)}${degraded}`;
  console.error(`[bench/stores] ${store.kind} + ${vectors?.kind ?? "no vectors"}: ${result} ms`);
  return result;
}

export type StoresRow = { store: string; "lexical only": string; "local vectors": string; milvus: string };

export async function benchStores(): Promise<StoresRow[]> {
  const milvusUrl = process.env.MILVUS_URL;
  const milvus = milvusUrl ? new MilvusVectorIndex({ address: milvusUrl, timeoutMs: 10_000, onWarning: (e) => console.error(`[bench/stores] milvus: ${e}`) }) : undefined;
  const out: StoresRow[] = [];
  try {
    for (const s of STORES) {
      const opened = await s.open().catch((err: Error) => ({ skipped: err.message.split("\n")[0]! }));
      if ("skipped" in opened) {
        out.push({ store: s.name, "lexical only": `skipped: ${opened.skipped}`, "local vectors": "-", milvus: "-" });
        continue;
      }
      try {
        const run = (v: SessionVectorIndex | undefined) => cell(opened.store, v).catch((err: Error) => `failed: ${err.message.split("\n")[0]}`);
        out.push({
          store: s.name,
          "lexical only": await run(undefined),
          "local vectors": await run(opened.local),
          milvus: milvus ? await run(milvus) : "skipped: MILVUS_URL is not set",
        });
      } finally {
        await opened.close();
      }
    }
  } finally {
    await milvus?.close();
  }
  return out;
}

export function printStores(rows: StoresRow[]): void {
  console.log(`\n== session recall p50 / p95 ms, full namespace (${MAX_FACTS_PER_NAMESPACE} facts), limit=10, ${QUERIES} queries per cell`);
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printStores(await benchStores());
}

/**
 * Builds MemoryServices from the configuration (RUN-3): MEMORY_STORE=postgres
 * (default) keeps session and repository memory in the relational store
 * (PGlite embedded, or PostgreSQL), MEMORY_STORE=neo4j in Neo4j,
 * MEMORY_STORE=hugegraph in HugeGraph (HUGEGRAPH_URL, HUGEGRAPH_GRAPH);
 * VECTOR_INDEX=local (default) keeps vectors beside the memory with exact
 * similarity, VECTOR_INDEX=milvus in Milvus. EMBEDDER / EXTRACTOR
 * choose the local models (default) or an OpenAI-compatible endpoint.
 */
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import { AppError } from "../core/errors";
import type { Logger } from "../core/log";
import type { ProviderGates } from "../core/provider-limits";
import { FallbackEmbedder, LocalHashEmbedder, OpenAIEmbedder, type Embedder } from "../core/memory/embedder";
import { SentenceModelEmbedder } from "../db/embedding/sentence-model";
import { LocalExtractor, OpenAIExtractor, type Extractor } from "../core/memory/extractor";
import { LlamaExtractor } from "../db/extraction/llama";
import { createMemoryServices, type MemoryServices } from "../core/memory/services";
import { PostgresRepositoryStore } from "../db/graph/postgres/repository-store";
import { PostgresSessionStore } from "../db/graph/postgres/session-store";
import { LocalVectorIndex } from "../db/vector/local";
import { PostgresVectorRows } from "../db/vector/local-postgres";
import type { Db } from "../db/schema";
import type { RepositoryMemoryStore } from "../core/memory/repository-store";
import type { SessionMemoryStore } from "../core/memory/store";
import type { SessionVectorIndex } from "../core/memory/vector-index";
import { once } from "../core/once";
import { HugeGraphClient } from "../db/graph/hugegraph/client";
import { HugeGraphRepositoryStore } from "../db/graph/hugegraph/repository-store";
import {
  ensureSchema as ensureHugeGraphSchema,
  REPOSITORY_SCHEMA as HUGEGRAPH_REPOSITORY_SCHEMA,
  SESSION_SCHEMA as HUGEGRAPH_SESSION_SCHEMA,
} from "../db/graph/hugegraph/schema";
import { HugeGraphSessionStore } from "../db/graph/hugegraph/session-store";
import { deferred, lazy, type MethodNames } from "./deferred";

// The methods of the Neo4j and Milvus adapters, which are deferred (main/deferred.ts): neither
// driver is imported unless MEMORY_STORE=neo4j or VECTOR_INDEX=milvus uses it.
const NEO4J_SESSION_STORE: MethodNames<SessionMemoryStore> = {
  ping: true,
  load: true,
  commit: true,
  clear: true,
  revokeSession: true,
  purgeSession: true,
  purgeExpired: true,
};
const NEO4J_REPOSITORY_STORE: MethodNames<RepositoryMemoryStore> = {
  inTransaction: false,
  staging: false,
  nearestEmbeddings: false,
  upsertFacts: true,
  searchNodes: true,
  querySubgraph: true,
  factsMatching: true,
  factsTouching: true,
  nodesMissingEmbedding: true,
  setEmbeddings: true,
  embeddings: true,
  pruneSource: true,
  forgetOrigin: true,
  loadMeta: true,
  factsSelected: true,
  factsPage: true,
};
const NEO4J_OR_MILVUS_VECTOR_INDEX: MethodNames<SessionVectorIndex> = {
  ping: true,
  upsert: true,
  search: true,
  searchPending: false,
  deleteScope: true,
  deleteSession: true,
  deleteExpired: true,
};

/**
 * EMBEDDER=local (default): the bundled sentence model, loaded on first use in the process that
 * embeds; if its files are missing or fail their checksum, or it cannot load, feature hashing
 * serves instead (a warning here, `codesynapse_embedder_fallback` in /metrics, `embedder` in /readyz).
 */
export function buildEmbedder(config: Config, gates?: ProviderGates, logger?: Logger): Embedder {
  if (config.EMBEDDER === "openai") {
    if (!config.EMBEDDING_BASE_URL) throw new AppError("unavailable", { message: "EMBEDDER=openai needs EMBEDDING_BASE_URL." });
    return new OpenAIEmbedder({ baseUrl: config.EMBEDDING_BASE_URL, model: config.EMBEDDING_MODEL, dim: 0, apiKey: config.LLM_API_KEY, gate: gates?.embedder });
  }
  if (config.EMBEDDER === "hash") return new LocalHashEmbedder(256);
  return new FallbackEmbedder(new SentenceModelEmbedder(undefined, { dir: config.EMBEDDING_MODEL_DIR }), new LocalHashEmbedder(256), (reason, model) =>
    logger?.warn({ event: "embedder_fallback", code: reason, model }, "memory: the embedding model cannot serve; feature hashing serves instead (recall matches words, not meaning)"),
  );
}

/**
 * EXTRACTOR=local (default): deterministic; openai: a locally hosted model behind LLM_BASE_URL;
 * llama: LLAMA_MODEL_PATH run in process by node-llama-cpp (LLAMA_MODULE_DIR), checked on first
 * use (a missing module or model: `unavailable`, warned once), never downloaded.
 */
export function buildExtractor(config: Config, gates?: ProviderGates, logger?: Logger): Extractor {
  if (config.EXTRACTOR === "llama") {
    return new LlamaExtractor({
      modelPath: config.LLAMA_MODEL_PATH,
      moduleDir: config.LLAMA_MODULE_DIR,
      onWarning: (event, code) =>
        logger?.warn({ event, code }, event === "llama_unavailable" ? "memory: EXTRACTOR=llama cannot load node-llama-cpp or its model; offloads are refused as unavailable" : "memory: the extraction model's answer was unusable; the local extractor served those turns"),
    });
  }
  if (config.EXTRACTOR === "openai") {
    if (!config.LLM_BASE_URL) throw new AppError("unavailable", { message: "EXTRACTOR=openai needs LLM_BASE_URL (a locally hosted model)." });
    return new OpenAIExtractor({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY, gate: gates?.extractor });
  }
  return new LocalExtractor();
}

export function buildMemoryServices(config: Config, db: Db, clock: Clock, logger: Logger, gates?: ProviderGates): MemoryServices {
  const onWarning = (event: string, code: string) => logger.warn({ event, code }, "memory: optional work failed");
  const graph = buildGraphStores(config, db);
  const vectors = buildVectorIndex(config, db, graph, (event) => onWarning(event, "unavailable"));
  const services = createMemoryServices({
    store: graph.store,
    repo: graph.repo,
    vectors: vectors.index,
    embedder: buildEmbedder(config, gates, logger),
    extractor: buildExtractor(config, gates, logger),
    clock,
    onWarning,
  });
  const close = services.close;
  services.close = () => {
    close();
    void vectors.close().catch(() => undefined);
    void graph.close().catch(() => undefined);
  };
  return services;
}

interface GraphStores {
  store: SessionMemoryStore;
  repo: RepositoryMemoryStore;
  /** Set for MEMORY_STORE=neo4j: Neo4j's own scope vectors, over the same driver. */
  neo4jVectors?: SessionVectorIndex;
  close(): Promise<void>;
}

/** MEMORY_STORE: postgres (default; PGlite or PostgreSQL) or neo4j (NEO4J_URL, NEO4J_USER, NEO4J_PASSWORD). */
function buildGraphStores(config: Config, db: Db): GraphStores {
  if (config.MEMORY_STORE === "neo4j") {
    const url = config.NEO4J_URL;
    if (!url) throw new AppError("unavailable", { message: "MEMORY_STORE=neo4j needs NEO4J_URL." });
    // One driver for the three, opened by the first call of any of them.
    const neo4j = lazy(() => import("./memory-neo4j").then((m) => m.openNeo4jMemory({ url, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD })));
    return {
      store: deferred<SessionMemoryStore>("neo4j", () => neo4j.get().then((n) => n.store), NEO4J_SESSION_STORE),
      repo: deferred<RepositoryMemoryStore>("neo4j", () => neo4j.get().then((n) => n.repo), NEO4J_REPOSITORY_STORE),
      neo4jVectors: deferred<SessionVectorIndex>("neo4j", () => neo4j.get().then((n) => n.vectors), NEO4J_OR_MILVUS_VECTOR_INDEX),
      close: async () => (await neo4j.started())?.close(),
    };
  }
  if (config.MEMORY_STORE === "hugegraph") {
    if (!config.HUGEGRAPH_URL) throw new AppError("unavailable", { message: "MEMORY_STORE=hugegraph needs HUGEGRAPH_URL." });
    const client = new HugeGraphClient({ url: config.HUGEGRAPH_URL, graph: config.HUGEGRAPH_GRAPH });
    // Property keys, labels and indexes are created once, before the first operation (idempotent).
    const schema = once(async () => {
      await ensureHugeGraphSchema(client, HUGEGRAPH_SESSION_SCHEMA);
      await ensureHugeGraphSchema(client, HUGEGRAPH_REPOSITORY_SCHEMA);
    });
    // Session and repository memory in HugeGraph (Node/FACT for the durable graph).
    return { store: new HugeGraphSessionStore(client, { schema }), repo: new HugeGraphRepositoryStore(client, { schema }), close: async () => undefined };
  }
  return { store: new PostgresSessionStore(db), repo: new PostgresRepositoryStore(db), close: async () => undefined };
}

/**
 * VECTOR_INDEX: milvus (MILVUS_URL) or local — exact similarity over the
 * bounded scope, kept where the session memory is: PostgreSQL rows, or
 * `SessionMemoryVector` nodes in Neo4j (VEC-3).
 */
function buildVectorIndex(config: Config, db: Db, graph: GraphStores, onWarning: (event: string) => void): { index: SessionVectorIndex; close(): Promise<void> } {
  if (config.VECTOR_INDEX === "milvus") {
    const address = config.MILVUS_URL;
    if (!address) throw new AppError("unavailable", { message: "VECTOR_INDEX=milvus needs MILVUS_URL." });
    const milvus = lazy(() => import("../db/vector/milvus").then((m) => new m.MilvusVectorIndex({ address, onWarning })));
    return { index: deferred<SessionVectorIndex>("milvus", () => milvus.get(), NEO4J_OR_MILVUS_VECTOR_INDEX), close: async () => (await milvus.started())?.close() };
  }
  if (graph.neo4jVectors) return { index: graph.neo4jVectors, close: async () => undefined };
  // Embedded PGlite: this process is the database's only user, so decoded vectors may be cached.
  return { index: new LocalVectorIndex(new PostgresVectorRows(db, { processCache: !config.DATABASE_URL })), close: async () => undefined };
}

/**
 * Builds MemoryServices from the configuration (RUN-3): MEMORY_STORE=postgres
 * (default) keeps session and repository memory in the relational store
 * (PGlite embedded, or PostgreSQL); VECTOR_INDEX=local (default) keeps
 * vectors in the same database with exact similarity. EMBEDDER / EXTRACTOR
 * choose the local models (default) or an OpenAI-compatible endpoint.
 */
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import { AppError } from "../core/errors";
import type { Logger } from "../core/log";
import { LocalHashEmbedder, OpenAIEmbedder, type Embedder } from "../core/memory/embedder";
import { LocalExtractor, OpenAIExtractor, type Extractor } from "../core/memory/extractor";
import { createMemoryServices, type MemoryServices } from "../core/memory/services";
import { PostgresRepositoryStore } from "../db/graph/postgres/repository-store";
import { PostgresSessionStore } from "../db/graph/postgres/session-store";
import { LocalVectorIndex } from "../db/vector/local";
import { PostgresVectorRows } from "../db/vector/local-postgres";
import type { Db } from "../db/schema";

export function buildEmbedder(config: Config): Embedder {
  if (config.EMBEDDER === "openai") {
    if (!config.EMBEDDING_BASE_URL) throw new AppError("unavailable", { message: "EMBEDDER=openai needs EMBEDDING_BASE_URL." });
    return new OpenAIEmbedder({ baseUrl: config.EMBEDDING_BASE_URL, model: config.EMBEDDING_MODEL, dim: 0, apiKey: config.LLM_API_KEY });
  }
  return new LocalHashEmbedder(256);
}

export function buildExtractor(config: Config): Extractor {
  if (config.EXTRACTOR === "openai") {
    if (!config.LLM_BASE_URL) throw new AppError("unavailable", { message: "EXTRACTOR=openai needs LLM_BASE_URL (a locally hosted model)." });
    return new OpenAIExtractor({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY });
  }
  return new LocalExtractor();
}

export function buildMemoryServices(config: Config, db: Db, clock: Clock, logger: Logger): MemoryServices {
  if (config.MEMORY_STORE !== "postgres") {
    throw new AppError("unavailable", { message: `MEMORY_STORE=${config.MEMORY_STORE} has no adapter in this build; use MEMORY_STORE=postgres.` });
  }
  if (config.VECTOR_INDEX !== "local") {
    throw new AppError("unavailable", { message: `VECTOR_INDEX=${config.VECTOR_INDEX} has no adapter in this build; use VECTOR_INDEX=local.` });
  }
  return createMemoryServices({
    store: new PostgresSessionStore(db),
    repo: new PostgresRepositoryStore(db),
    vectors: new LocalVectorIndex(new PostgresVectorRows(db)),
    embedder: buildEmbedder(config),
    extractor: buildExtractor(config),
    clock,
    onWarning: (event, code) => logger.warn({ event, code }, "memory: optional work failed"),
  });
}

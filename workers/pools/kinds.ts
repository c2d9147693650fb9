/**
 * The user job kinds over repository memory (WRK-2..5), built once by the
 * composition root (main/runtime.ts) and registered on the one JobRegistry.
 * `queue` is a getter: handlers that start follow-up jobs need the queue,
 * which is built from the registry they are registered on.
 */
import type { Config } from "../../core/config";
import type { MemoryServices } from "../../core/memory/services";
import type { Stores } from "../../core/stores";
import type { Tx } from "../../db/schema";
import type { JobQueue } from "../../queues/submit";
import type { JobHandler } from "../handler";
import type { ProviderGates } from "../../core/provider-limits";
import { buildLlmRegistry, type LlmRegistry } from "../../core/llm/registry";
import { aiHandler } from "./ai";
import { embeddingHandler } from "./embedding";
import { fixHandler } from "./fix";
import { ingestHandler } from "./ingest";

export interface KindDeps {
  config: Config;
  memory: MemoryServices;
  /** The relational stores (core/stores.ts): uploads and the parse cache for ingest and fix. */
  stores: Stores<Tx>;
  queue: () => JobQueue;
  /** Defaults to the registry the configuration names (LLM_PROVIDER, LLM_BASE_URL, LLM_MODEL, LLM_API_KEY). */
  llm?: LlmRegistry;
  /** Provider limits (core/provider-limits.ts): the LLM endpoint's gate, when one is configured. */
  gates?: ProviderGates;
}

export function jobKindHandlers(deps: KindDeps): JobHandler[] {
  const repository = deps.memory.repository;
  const llm = deps.llm ?? buildLlmRegistry(deps.config, deps.gates?.llm);
  return [
    ingestHandler({ config: deps.config, queue: deps.queue, stores: deps.stores, repository: repository.store }),
    embeddingHandler({ repository, queue: deps.queue }),
    aiHandler({ memory: deps.memory, llm, recallWaitMs: deps.config.AI_RECALL_WAIT_MS }),
    fixHandler({ config: deps.config, memory: deps.memory, uploads: deps.stores.uploads, llm }),
  ] as JobHandler[];
}

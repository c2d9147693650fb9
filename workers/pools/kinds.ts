/**
 * The user job kinds over repository memory (WRK-2..5), built once by the
 * composition root (api/runtime.ts) and registered on the one JobRegistry.
 * `queue` is a getter: handlers that start follow-up jobs need the queue,
 * which is built from the registry they are registered on.
 */
import type { Config } from "../../core/config";
import type { MemoryServices } from "../../core/memory/services";
import type { JobQueue } from "../../queues/submit";
import type { JobHandler } from "../handler";
import { embeddingHandler } from "./embedding";
import { ingestHandler } from "./ingest";

export interface KindDeps {
  config: Config;
  memory: MemoryServices;
  queue: () => JobQueue;
}

export function jobKindHandlers(deps: KindDeps): JobHandler[] {
  const repository = deps.memory.repository;
  return [
    ingestHandler({ config: deps.config, repository, queue: deps.queue }),
    embeddingHandler({ repository, queue: deps.queue }),
  ] as JobHandler[];
}

/**
 * MemoryServices: everything memory needs, built once by the composition root
 * (main/runtime.ts → `buildMemoryServices`) and handed to routes, MCP tools and
 * workers through their contexts.
 */
import type { Clock } from "../clock";
import type { SessionCleaner } from "../retention/cleaners";
import { MEMORY_PURGE_BATCH } from "../limits";
import type { Embedder } from "./embedder";
import { SessionMemoryEngine } from "./engine";
import type { Extractor } from "./extractor";
import { OffloadQueue } from "./offload";
import { RepositoryMemory } from "./repository";
import type { RepositoryMemoryStore } from "./repository-store";
import type { SessionMemoryStore } from "./store";
import type { PurgeResult } from "./types";
import type { SessionVectorIndex } from "./vector-index";

export interface MemoryServices {
  sessions: SessionMemoryEngine;
  repository: RepositoryMemory;
  offload: OffloadQueue;
  store: SessionMemoryStore;
  vectors: SessionVectorIndex;
  embedder: Embedder;
  close(): void;
}

export function createMemoryServices(deps: {
  store: SessionMemoryStore;
  repo: RepositoryMemoryStore;
  vectors: SessionVectorIndex;
  embedder: Embedder;
  extractor: Extractor;
  clock: Clock;
  onWarning?: (event: string, code: string) => void;
}): MemoryServices {
  const sessions = new SessionMemoryEngine({ store: deps.store, clock: deps.clock, vectors: deps.vectors, embedder: deps.embedder, onWarning: deps.onWarning });
  const repository = new RepositoryMemory({ repo: deps.repo, clock: deps.clock, embedder: deps.embedder, onWarning: deps.onWarning });
  const offload = new OffloadQueue({ engine: sessions, extractor: deps.extractor, onWarning: deps.onWarning });
  return { sessions, repository, offload, store: deps.store, vectors: deps.vectors, embedder: deps.embedder, close: () => void offload.close() };
}

/**
 * RET-1 cleanup entry point for one revoked or expired session: removes its
 * session-memory graph data and vectors, one bounded batch of each per call.
 * The cleanup pool calls it every minute until `done`; roots and tombstones
 * stay, so nothing can be recreated. Safe to call repeatedly.
 */
export async function purgeSession(
  m: Pick<MemoryServices, "store" | "vectors">,
  tenantId: string,
  sessionId: string,
  batch = MEMORY_PURGE_BATCH,
): Promise<PurgeResult> {
  const graph = await m.store.purgeSession(tenantId, sessionId, batch);
  const vectors = await m.vectors.deleteSession(tenantId, sessionId, batch);
  return { removed: graph.removed + vectors.removed, done: graph.done && vectors.done };
}

/** RET-1 for revocation: writes the memory tombstone at once, then attempts one cleanup batch. */
export async function revokeSessionMemory(m: Pick<MemoryServices, "store" | "vectors">, tenantId: string, sessionId: string, now: number): Promise<PurgeResult> {
  await m.store.revokeSession(tenantId, sessionId, now);
  return purgeSession(m, tenantId, sessionId);
}

/** RET-1 for expiry: one bounded batch of expired graph data and vectors, any tenant. */
export async function purgeExpiredMemory(m: Pick<MemoryServices, "store" | "vectors">, now: number, batch = MEMORY_PURGE_BATCH): Promise<PurgeResult> {
  const graph = await m.store.purgeExpired(now, batch);
  const vectors = await m.vectors.deleteExpired(now, batch);
  return { removed: graph.removed + vectors.removed, done: graph.done && vectors.done };
}

/**
 * The session-memory cleaner the cleanup pool drives (RET-1): for a revoked or
 * expired session it writes the memory tombstone first (so an old worker can
 * never recreate data), then purges one bounded batch of graph data and vectors.
 */
export function memoryCleaner(m: Pick<MemoryServices, "store" | "vectors">, clock: Clock): SessionCleaner {
  return {
    name: "session-memory",
    async purgeSession(target, opts) {
      await m.store.revokeSession(target.tenant_id, target.session_id, clock.now().getTime());
      return purgeSession(m, target.tenant_id, target.session_id, opts.limit);
    },
    async purgeExpired(now, opts) {
      return purgeExpiredMemory(m, now.getTime(), opts.limit);
    },
  };
}

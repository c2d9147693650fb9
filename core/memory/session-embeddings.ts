/**
 * The embedding side of session memory: an entity is embedded (its name,
 * aliases and type) under the caller's identity and upserted into the vector
 * index after the commit that added it; a recall embeds its query and
 * searches the scope's vectors. Both are optional: without an index or an
 * embedder they do nothing, and a failure is told to `warn` (by error code
 * upstream, never text) so lexical recall keeps working.
 */
import type { Identity } from "../execution/identity";
import type { Embedder } from "./embedder";
import type { ScopeKey, SessionEntity } from "./types";
import type { SessionVectorIndex } from "./vector-index";

interface Vectors {
  vectors?: SessionVectorIndex | undefined;
  embedder?: Embedder | undefined;
}

type Warn = (event: string, err: unknown) => void;

/** The scope's vector hits for `query` (none without an index, or when the search fails). */
export async function searchEntityVectors({ vectors, embedder }: Vectors, identity: Identity, key: ScopeKey, query: string, limit: number, now: () => number, warn: Warn) {
  if (!vectors || !embedder) return [];
  try {
    // The model that serves (a fallback decides on its first use), then the query's one embedding;
    // an index that can reads the scope's rows meanwhile.
    await embedder.status?.();
    const pending = embedder.embed(identity, [query]).then(([q]) => q ?? []);
    const opts = { model: embedder.model, limit: Math.min(1024, Math.max(64, limit * 8)), now: now() };
    if (vectors.searchPending) return await vectors.searchPending(key, pending, opts);
    const q = await pending;
    return q.length === 0 ? [] : await vectors.search(key, q, opts);
  } catch (err) {
    warn("vector_search_failed", err);
    return [];
  }
}

/** Embeds `entities` into the scope's vectors; a failure is told to `warn`, or thrown when there is none (a reindex). */
export async function embedEntities({ vectors, embedder }: Vectors, identity: Identity, key: ScopeKey, entities: SessionEntity[], expiresAt: number, warn: Warn | undefined): Promise<void> {
  if (!vectors || !embedder || entities.length === 0) return;
  try {
    const texts = entities.map((e) => [e.name, ...(e.doc.aliases ?? []), e.type].join(" "));
    const vecs = await embedder.embed(identity, texts);
    await vectors.upsert(entities.map((e, i) => ({ key, id: e.id, model: embedder.model, vector: vecs[i]!, expires_at: expiresAt })));
  } catch (err) {
    if (!warn) throw err;
    warn("embedding_failed", err);
  }
}

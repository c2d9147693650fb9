/**
 * SessionVectorIndex: where session-entity embeddings live (VEC-1..3). The
 * local exact-similarity index (db/vector/local.ts) is the default; Milvus
 * implements the same interface.
 *
 * Physical IDs are compound (tenant, session, ns, entity id), so equal logical
 * IDs in different sessions never overwrite each other. `search` must filter
 * on tenant, session, namespace, model and `expires_at > now`, and every hit
 * carries those fields back so the caller can check them again (VEC-2): the
 * recall engine drops any hit that is foreign, expired, scoreless or no longer
 * in a fresh snapshot, whatever the index returned.
 */
import type { PurgeResult, ScopeKey } from "./types";

export interface VectorRecord {
  key: ScopeKey;
  /** The logical entity ID within the scope. */
  id: string;
  /** The embedding model that produced the vector (one space per model). */
  model: string;
  vector: number[];
  /** Epoch ms: the scope's expiry. */
  expires_at: number;
}

export interface VectorHit {
  tenant_id: string;
  session_id: string;
  ns: string;
  id: string;
  expires_at: number;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface SessionVectorIndex {
  readonly kind: string;
  /** A cheap round trip to the server behind the index (/readyz); absent when it lives in the relational store. */
  ping?(): Promise<void>;
  upsert(records: VectorRecord[]): Promise<void>;
  search(key: ScopeKey, vector: number[], opts: { model: string; limit: number; now: number }): Promise<VectorHit[]>;
  /**
   * Optional: `search` for a query vector still being computed. An index that reads the scope's
   * rows regardless of the query (the local index on PostgreSQL) starts that read at once, so the
   * store works while the query is embedded; the result is the same as `search` with the vector.
   */
  searchPending?(key: ScopeKey, vector: Promise<number[]>, opts: { model: string; limit: number; now: number }): Promise<VectorHit[]>;
  /** Removes every vector of one namespace (after a clear). */
  deleteScope(key: ScopeKey): Promise<void>;
  /** Cleanup: removes up to `batch` vectors of the session (any namespace). Call until `done`. */
  deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult>;
  /** Cleanup: removes up to `batch` expired vectors, any tenant. */
  deleteExpired(now: number, batch: number): Promise<PurgeResult>;
}

export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return Number.NaN;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

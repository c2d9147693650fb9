/**
 * The local vector index (VECTOR_INDEX=local): exact cosine similarity over
 * the bounded scope (at most MAX_ENTITIES_PER_NAMESPACE vectors per
 * namespace), computed in process. Where the vectors are kept is a small
 * `VectorRows` backend: in process memory, or a PostgreSQL table
 * (db/vector/local-postgres.ts) so they survive a restart — similarity is
 * the same JS code on PGlite and PostgreSQL.
 *
 * Rows are keyed by (tenant, session, ns, entity id, model): compound, so the
 * same logical ID in two sessions never overwrites the other.
 */
import { MAX_ENTITIES_PER_NAMESPACE } from "../../core/limits";
import { cosine, type SessionVectorIndex, type VectorHit, type VectorRecord } from "../../core/memory/vector-index";
import type { PurgeResult, ScopeKey } from "../../core/memory/types";

export interface VectorRows {
  put(records: VectorRecord[]): Promise<void>;
  /** Rows of the scope and model with expires_at > now, at most `limit`. */
  scan(key: ScopeKey, model: string, now: number, limit: number): Promise<VectorRecord[]>;
  deleteScope(key: ScopeKey): Promise<void>;
  /**
   * Optional push-down of `search`: the same exact cosine similarity computed
   * where the rows live, returning only the best `limit` hits (used by the
   * PostgreSQL rows so a recall does not ship every vector of the scope).
   */
  nearest?(key: ScopeKey, model: string, now: number, vector: number[] | Promise<number[]>, limit: number): Promise<VectorHit[]>;
  deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult>;
  deleteExpired(now: number, batch: number): Promise<PurgeResult>;
}

export class LocalVectorIndex implements SessionVectorIndex {
  readonly kind = "local";
  constructor(private readonly rows: VectorRows) {}

  upsert(records: VectorRecord[]): Promise<void> {
    return records.length === 0 ? Promise.resolve() : this.rows.put(records);
  }

  search(key: ScopeKey, vector: number[], opts: { model: string; limit: number; now: number }): Promise<VectorHit[]> {
    return this.searchPending(key, Promise.resolve(vector), opts);
  }

  /** The scope's rows are read while the query vector is still being computed (one store round trip off the recall's path). */
  async searchPending(key: ScopeKey, pending: Promise<number[]>, opts: { model: string; limit: number; now: number }): Promise<VectorHit[]> {
    if (this.rows.nearest) return this.rows.nearest(key, opts.model, opts.now, pending, Math.min(opts.limit, MAX_ENTITIES_PER_NAMESPACE));
    const [rows, vector] = await Promise.all([this.rows.scan(key, opts.model, opts.now, MAX_ENTITIES_PER_NAMESPACE), pending]);
    const hits: VectorHit[] = [];
    for (const r of rows) {
      const score = cosine(vector, r.vector);
      if (!Number.isFinite(score)) continue;
      hits.push({ tenant_id: r.key.tenant_id, session_id: r.key.session_id, ns: r.key.ns, id: r.id, expires_at: r.expires_at, score });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, opts.limit);
  }

  deleteScope(key: ScopeKey): Promise<void> {
    return this.rows.deleteScope(key);
  }

  deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return this.rows.deleteSession(tenantId, sessionId, batch);
  }

  deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    return this.rows.deleteExpired(now, batch);
  }
}

const pk = (key: ScopeKey, id: string, model: string) => JSON.stringify([key.tenant_id, key.session_id, key.ns, id, model]);

/** Vectors kept in process memory (tests; a process that accepts losing them on restart). */
export class MemoryVectorRows implements VectorRows {
  private readonly rows = new Map<string, VectorRecord>();

  async put(records: VectorRecord[]): Promise<void> {
    for (const r of records) this.rows.set(pk(r.key, r.id, r.model), structuredClone(r));
  }

  async scan(key: ScopeKey, model: string, now: number, limit: number): Promise<VectorRecord[]> {
    const out: VectorRecord[] = [];
    for (const r of this.rows.values()) {
      if (out.length >= limit) break;
      if (r.key.tenant_id === key.tenant_id && r.key.session_id === key.session_id && r.key.ns === key.ns && r.model === model && r.expires_at > now) out.push(r);
    }
    return out;
  }

  /** How many vectors one session still holds, any namespace (erasure checks). */
  countSession(tenantId: string, sessionId: string): number {
    let n = 0;
    for (const r of this.rows.values()) if (r.key.tenant_id === tenantId && r.key.session_id === sessionId) n++;
    return n;
  }

  async deleteScope(key: ScopeKey): Promise<void> {
    for (const [k, r] of this.rows) if (r.key.tenant_id === key.tenant_id && r.key.session_id === key.session_id && r.key.ns === key.ns) this.rows.delete(k);
  }

  private deleteWhere(pred: (r: VectorRecord) => boolean, batch: number): PurgeResult {
    let removed = 0;
    for (const [k, r] of this.rows) {
      if (!pred(r)) continue;
      if (removed >= batch) return { removed, done: false };
      this.rows.delete(k);
      removed++;
    }
    return { removed, done: true };
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return this.deleteWhere((r) => r.key.tenant_id === tenantId && r.key.session_id === sessionId, batch);
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    return this.deleteWhere((r) => r.expires_at <= now, batch);
  }
}

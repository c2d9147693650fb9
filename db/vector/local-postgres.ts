/**
 * The local vector index's rows in PostgreSQL (`session_memory_vectors`):
 * vectors stored compactly as bytea (float4, big-endian: 4 bytes a
 * dimension), read back as one buffer per row and scored in process by the
 * same exact cosine as in memory — no array text to parse, no JSON, no
 * per-element SQL. The scope is bounded (MAX_ENTITIES_PER_NAMESPACE), so a
 * search reads at most that many rows of one (tenant, session, ns, model).
 * Identical on PGlite and PostgreSQL; the vectors survive a restart.
 *
 * `processCache` (the embedded PGlite default, where this process is the
 * database's only user — its data directory holds a pid lock): the decoded
 * rows of recently searched scopes are kept in process (at most
 * CACHE_SCOPES scopes, least recently used out), shared by every instance on
 * the same database object, and dropped on every write or delete that could
 * touch them — so a search never reads stale rows, and a repeated search
 * reads none. With a PostgreSQL server (several processes) there is no cache.
 */
import { sql, type RawBuilder } from "kysely";
import { executePrepared } from "../../core/prepare";
import type { PurgeResult, ScopeKey } from "../../core/memory/types";
import { MAX_ENTITIES_PER_NAMESPACE } from "../../core/limits";
import type { VectorHit, VectorRecord } from "../../core/memory/vector-index";
import type { Db } from "../schema";
import type { VectorRows } from "./local";

/** float4 big-endian bytes of a vector. */
export function encodeVector(v: number[]): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) dv.setFloat32(i * 4, v[i]!, false);
  return out;
}

/** The vector encodeVector wrote (a trailing partial float is ignored). */
export function decodeVector(b: Uint8Array): Float32Array {
  const n = Math.floor(b.byteLength / 4);
  const out = new Float32Array(n);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < n; i++) out[i] = dv.getFloat32(i * 4, false);
  return out;
}

/** Cosine of a query (with its precomputed norm²) and a stored vector; NaN when lengths differ. */
function cosineTo(q: ArrayLike<number>, qq: number, v: Float32Array): number {
  if (v.length !== q.length || v.length === 0) return Number.NaN;
  let dot = 0;
  let vv = 0;
  for (let i = 0; i < v.length; i++) {
    const y = v[i]!;
    dot += q[i]! * y;
    vv += y * y;
  }
  return qq === 0 || vv === 0 ? 0 : dot / Math.sqrt(qq * vv);
}

interface CachedRow {
  id: string;
  expires_at: number;
  vector: Float32Array;
}

export const CACHE_SCOPES = 256;
/** Per database object: the rows by scope, and a generation bumped by every invalidation. */
interface ScopeCache {
  rows: Map<string, CachedRow[]>;
  gen: number;
}
const caches = new WeakMap<Db, ScopeCache>();
const cacheKey = (key: ScopeKey, model: string) => JSON.stringify([key.tenant_id, key.session_id, key.ns, model]);

export class PostgresVectorRows implements VectorRows {
  readonly #cache: ScopeCache | null;

  constructor(
    private readonly db: Db,
    opts: { processCache?: boolean } = {},
  ) {
    let c = caches.get(db) ?? null;
    if (opts.processCache && !c) caches.set(db, (c = { rows: new Map(), gen: 0 }));
    this.#cache = opts.processCache ? c : null;
  }

  /** Drops cached scopes `pred` matches; a read that started before cannot cache what it read (`gen`). */
  #forget(pred: (k: [string, string, string, string]) => boolean): void {
    if (!this.#cache) return;
    this.#cache.gen++;
    for (const k of [...this.#cache.rows.keys()]) if (pred(JSON.parse(k) as [string, string, string, string])) this.#cache.rows.delete(k);
  }

  async put(records: VectorRecord[]): Promise<void> {
    const touched = new Set(records.map((r) => JSON.stringify([r.key.tenant_id, r.key.session_id, r.key.ns])));
    const forget = () => this.#forget(([t, s, n]) => touched.has(JSON.stringify([t, s, n])));
    forget();
    try {
      await this.#put(records);
    } finally {
      forget();
    }
  }

  async #put(records: VectorRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += 200) {
      const rows = records.slice(i, i + 200).map((r) => ({
        tenant_id: r.key.tenant_id,
        session_id: r.key.session_id,
        ns: r.key.ns,
        id: r.id,
        model: r.model,
        vector: encodeVector(r.vector),
        expires_at: new Date(r.expires_at),
      }));
      await this.db
        .insertInto("session_memory_vectors")
        .values(rows)
        .onConflict((oc) =>
          oc.columns(["tenant_id", "session_id", "ns", "id", "model"]).doUpdateSet((eb) => ({ vector: eb.ref("excluded.vector"), expires_at: eb.ref("excluded.expires_at") })),
        )
        .execute();
    }
  }

  async scan(key: ScopeKey, model: string, now: number, limit: number): Promise<VectorRecord[]> {
    const rows = await this.db
      .selectFrom("session_memory_vectors")
      .select(["tenant_id", "session_id", "ns", "id", "model", "vector", "expires_at"])
      .where("tenant_id", "=", key.tenant_id)
      .where("session_id", "=", key.session_id)
      .where("ns", "=", key.ns)
      .where("model", "=", model)
      .where("expires_at", ">", new Date(now))
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      key: { tenant_id: r.tenant_id, session_id: r.session_id, ns: r.ns },
      id: r.id,
      model: r.model,
      vector: Array.from(decodeVector(r.vector)),
      expires_at: r.expires_at.getTime(),
    }));
  }

  /**
   * Exact cosine similarity over the scope's rows (at most MAX_ENTITIES_PER_NAMESPACE), best
   * `limit` first, ties by id. Same definition as `cosine()`: a vector of another length never
   * matches, a zero vector scores 0. Each row arrives as one bytea buffer, so a recall costs one
   * indexed read of the scope and a few hundred thousand multiply-adds, not a text parse.
   */
  async nearest(key: ScopeKey, model: string, now: number, query: number[] | Promise<number[]>, limit: number): Promise<VectorHit[]> {
    // The rows do not depend on the query: their read starts first, and the store answers while a pending query is embedded.
    const [all, vector] = await Promise.all([this.#rows(key, model), query]);
    if (vector.length === 0) return [];
    const rows = all.filter((r) => r.expires_at > now && r.vector.length === vector.length);
    let qq = 0;
    for (const x of vector) qq += x * x;
    const hits: VectorHit[] = [];
    for (const r of rows) {
      const score = cosineTo(vector, qq, r.vector);
      if (!Number.isFinite(score)) continue;
      hits.push({ tenant_id: key.tenant_id, session_id: key.session_id, ns: key.ns, id: r.id, expires_at: r.expires_at, score });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  }

  /** The scope's rows of `model`, decoded (from the process cache when it has them). Expiry is the caller's filter. */
  async #rows(key: ScopeKey, model: string): Promise<CachedRow[]> {
    const ck = cacheKey(key, model);
    const cache = this.#cache;
    const hit = cache?.rows.get(ck);
    if (cache && hit) {
      cache.rows.delete(ck);
      cache.rows.set(ck, hit);
      return hit;
    }
    const gen = cache?.gen ?? 0;
    const { rows } = await executePrepared(
      this.db,
      "session_vectors",
      this.db
        .selectFrom("session_memory_vectors")
        .select(["id", "vector", "expires_at"])
        .where("tenant_id", "=", key.tenant_id)
        .where("session_id", "=", key.session_id)
        .where("ns", "=", key.ns)
        .where("model", "=", model)
        .limit(MAX_ENTITIES_PER_NAMESPACE),
    );
    const out = rows.map((r) => ({ id: r.id, expires_at: r.expires_at.getTime(), vector: decodeVector(r.vector) }));
    if (cache && cache.gen === gen) {
      cache.rows.set(ck, out);
      while (cache.rows.size > CACHE_SCOPES) cache.rows.delete(cache.rows.keys().next().value!);
    }
    return out;
  }

  async deleteScope(key: ScopeKey): Promise<void> {
    const forget = () => this.#forget(([t, s, n]) => t === key.tenant_id && s === key.session_id && n === key.ns);
    forget();
    await this.db.deleteFrom("session_memory_vectors").where("tenant_id", "=", key.tenant_id).where("session_id", "=", key.session_id).where("ns", "=", key.ns).execute();
    forget();
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    const forget = () => this.#forget(([t, s]) => t === tenantId && s === sessionId);
    forget();
    const r = await this.#deleteBatch(sql`tenant_id = ${tenantId} and session_id = ${sessionId}`, batch);
    forget();
    return r;
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    if (this.#cache) {
      this.#cache.gen++;
      this.#cache.rows.clear();
    }
    return this.#deleteBatch(sql`expires_at <= ${new Date(now)}`, batch);
  }

  /** At most `batch` vectors matching `where`; `done` when no more were there (one extra row is looked at to know). */
  async #deleteBatch(where: RawBuilder<unknown>, batch: number): Promise<PurgeResult> {
    const r = await sql`
      with doomed as (
        select tenant_id, session_id, ns, id, model from session_memory_vectors where ${where} limit ${batch + 1}
      ), gone as (
        delete from session_memory_vectors v using (select * from doomed limit ${batch}) d
        where v.tenant_id = d.tenant_id and v.session_id = d.session_id and v.ns = d.ns and v.id = d.id and v.model = d.model
        returning 1
      )
      select (select count(*) from gone) as removed, (select count(*) from doomed) as seen`.execute(this.db);
    const row = r.rows[0] as { removed: string | number; seen: string | number };
    return { removed: Number(row.removed), done: Number(row.seen) <= batch };
  }
}

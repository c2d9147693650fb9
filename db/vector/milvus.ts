/**
 * Milvus SessionVectorIndex (VECTOR_INDEX=milvus), VEC-1/VEC-2.
 *
 * Layout: one collection per embedding model and dimension
 * (`cs_session_<model slug>_<model hash>_d<dim>`), fields
 *   pk          VarChar(64), primary key = sha256 of (tenant, session, ns, entity id):
 *               compound, so equal logical IDs in two sessions never overwrite each other
 *   tenant_id   VarChar(128), the partition key
 *   session_id  VarChar(128)
 *   ns          VarChar(128)
 *   entity_id   VarChar(64)
 *   expires_at  Int64 (epoch ms, the scope's expiry)
 *   vector      FloatVector(dim), AUTOINDEX / COSINE
 *
 * Every search, query and delete filters with a constant template and the
 * values in `exprValues` — the Node SDK's name for Milvus's
 * `expr_template_values`, the field the seed calls `exprParams`:
 *   tenant_id == {tenant} && session_id == {session} && ns == {ns} && expires_at > {now}
 * Milvus Lite 3.x parses no templates ("unexpected character '{'"); the test
 * launcher (test/services/milvus/serve.py) substitutes them server-side. If a
 * server refuses templates anyway, this adapter switches (once, logged by
 * code) to literal filters built only from values that match the identity
 * charset `^[A-Za-z0-9._:-]{1,128}$` and integers — nothing that could close
 * a string literal — and refuses to build a filter from anything else.
 *
 * Searches use Strong consistency (read-your-writes for a just-embedded
 * entity). Hits carry their scope fields back; the engine rechecks them
 * (core/recall/recall.ts checkHits) and hydrates against a fresh snapshot.
 * Any failure throws AppError("unavailable"); the engine turns a failed
 * vector write or search into lexical-only recall, never an error for the caller.
 */
import { createHash } from "node:crypto";
import { ConsistencyLevelEnum, DataType, MilvusClient, type RowData } from "@zilliz/milvus2-sdk-node";
import { AppError } from "../../core/errors";
import type { SessionVectorIndex, VectorHit, VectorRecord } from "../../core/memory/vector-index";
import type { PurgeResult, ScopeKey } from "../../core/memory/types";

export const COLLECTION_PREFIX = "cs_session_";

const SCOPE_FILTER = "tenant_id == {tenant} && session_id == {session} && ns == {ns}";
const SEARCH_FILTER = `${SCOPE_FILTER} && expires_at > {now}`;
const SESSION_FILTER = "tenant_id == {tenant} && session_id == {session}";
const EXPIRED_FILTER = "expires_at <= {now}";
const OUTPUT = ["tenant_id", "session_id", "ns", "entity_id", "expires_at"];
const RECONNECT_BACKOFF_MS = 5_000;
const SAFE_VALUE = /^[A-Za-z0-9._:-]{1,128}$/;

type Params = Record<string, string | number>;

export interface MilvusOptions {
  /** host:port (gRPC). */
  address: string;
  token?: string | undefined;
  database?: string | undefined;
  /** Per-call timeout (ms); a slow or dead server degrades recall quickly. */
  timeoutMs?: number | undefined;
  /** Told about degraded modes by code only (never values). */
  onWarning?: ((event: string) => void) | undefined;
}

export function collectionName(model: string, dim: number): string {
  const slug = model.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40) || "model";
  const hash = createHash("sha256").update(model).digest("hex").slice(0, 8);
  return `${COLLECTION_PREFIX}${slug}_${hash}_d${dim}`;
}

export function physicalId(key: ScopeKey, id: string): string {
  return createHash("sha256").update(JSON.stringify([key.tenant_id, key.session_id, key.ns, id])).digest("hex");
}

/** Renders a template with literal values; only values that cannot break out of a literal are accepted. */
export function renderLiteral(template: string, params: Params): string {
  return template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) throw new AppError("validation_failed", { details: { field: "vector_filter" } });
      return String(v);
    }
    if (typeof v !== "string" || !SAFE_VALUE.test(v)) throw new AppError("validation_failed", { details: { field: "vector_filter" } });
    return `"${v}"`;
  });
}

function check<T>(res: T): T {
  const st = ((res as { status?: unknown })?.status ?? res) as { error_code?: string | number; code?: number; reason?: string };
  const failed = (st?.error_code !== undefined && st.error_code !== "Success" && st.error_code !== 0) || (typeof st?.code === "number" && st.code !== 0);
  if (failed) throw new MilvusError(String(st.reason ?? ""));
  return res;
}

class MilvusError extends Error {}

function unavailable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError("unavailable", { message: "The vector index is not available.", cause: err });
}

export class MilvusVectorIndex implements SessionVectorIndex {
  readonly kind = "milvus";
  private current: MilvusClient | null = null;
  /** When the last connection failed (epoch ms): calls fail fast for RECONNECT_BACKOFF_MS, then a new client tries again. */
  private brokenAt = 0;
  private readonly ready = new Map<string, Promise<void>>();
  /** false once the server refused a filter template; then literal filters (see header). */
  private templates = true;

  constructor(private readonly opts: MilvusOptions) {}

  async ping(): Promise<void> {
    const h = await this.client.checkHealth();
    if (!h.isHealthy) throw new AppError("unavailable", { message: "The vector index is not healthy." });
  }

  /**
   * The SDK connects in its constructor and keeps the rejected connect promise
   * for good if the server was down; so the client is created lazily, a failed
   * connection is observed (never an unhandled rejection) and the client
   * replaced after a short back-off, so the index recovers when Milvus does.
   */
  private get client(): MilvusClient {
    if (this.current) return this.current;
    if (Date.now() - this.brokenAt < RECONNECT_BACKOFF_MS) throw new AppError("unavailable", { message: "The vector index is not available." });
    const c = new MilvusClient({
      address: this.opts.address,
      ...(this.opts.token ? { token: this.opts.token } : {}),
      ...(this.opts.database ? { database: this.opts.database } : {}),
      timeout: this.opts.timeoutMs ?? 10_000,
      maxRetries: 1,
      logLevel: "error",
      // The SDK pings every 10 s even without calls; gRPC servers with the default policy
      // (Milvus Lite's Python server) answer with GOAWAY "too_many_pings" and calls stall until
      // their timeout. Ping rarely, and only while calls are in flight.
      channelOptions: { "grpc.keepalive_time_ms": 300_000, "grpc.keepalive_permit_without_calls": 0 },
    });
    c.connectPromise.catch(() => this.broken(c));
    this.current = c;
    return c;
  }

  private broken(c: MilvusClient): void {
    if (this.current !== c) return;
    this.current = null;
    this.brokenAt = Date.now();
    this.ready.clear();
    this.opts.onWarning?.("milvus_connection_failed");
    void c.closeConnection().catch(() => undefined);
  }

  async close(): Promise<void> {
    const c = this.current;
    this.current = null;
    await c?.closeConnection();
  }

  /** Creates the collection of (model, dim) if missing: schema, index, load. Idempotent, concurrent-safe. */
  ensureCollection(model: string, dim: number): Promise<void> {
    const name = collectionName(model, dim);
    let p = this.ready.get(name);
    if (!p) {
      p = this.create(name, dim).catch((err: unknown) => {
        this.ready.delete(name);
        throw err;
      });
      this.ready.set(name, p);
    }
    return p;
  }

  private async create(name: string, dim: number): Promise<void> {
    const has = check(await this.client.hasCollection({ collection_name: name }));
    if (!has.value) {
      try {
        check(
          await this.client.createCollection({
            collection_name: name,
            fields: [
              { name: "pk", data_type: DataType.VarChar, is_primary_key: true, max_length: 64 },
              { name: "tenant_id", data_type: DataType.VarChar, is_partition_key: true, max_length: 128 },
              { name: "session_id", data_type: DataType.VarChar, max_length: 128 },
              { name: "ns", data_type: DataType.VarChar, max_length: 128 },
              { name: "entity_id", data_type: DataType.VarChar, max_length: 64 },
              { name: "expires_at", data_type: DataType.Int64 },
              { name: "vector", data_type: DataType.FloatVector, dim },
            ],
            consistency_level: "Strong",
          }),
        );
        check(await this.client.createIndex({ collection_name: name, field_name: "vector", index_type: "AUTOINDEX", metric_type: "COSINE" }));
      } catch (err) {
        // Another process may have created it in between.
        const again = check(await this.client.hasCollection({ collection_name: name }));
        if (!again.value) throw err;
      }
    }
    check(await this.client.loadCollectionSync({ collection_name: name }));
  }

  /** The session collections that exist (any model, any dimension). */
  private async collections(): Promise<string[]> {
    const res = check(await this.client.showCollections());
    return res.data.map((c) => c.name).filter((n) => n.startsWith(COLLECTION_PREFIX));
  }

  /** The filter fields for a call: a template + exprValues, or (fallback) a strict literal. */
  private filter(template: string, params: Params): { filter: string; exprValues?: Params } {
    return this.templates ? { filter: template, exprValues: params } : { filter: renderLiteral(template, params) };
  }

  /** Runs a filtered call; on a template refusal switches to literal filters once and retries. */
  private async filtered<T>(template: string, params: Params, call: (f: { filter: string; exprValues?: Params }) => Promise<T>): Promise<T> {
    try {
      return check(await call(this.filter(template, params)));
    } catch (err) {
      if (this.templates && err instanceof MilvusError && /unexpected character '\{'|template/i.test(err.message)) {
        this.templates = false;
        this.opts.onWarning?.("milvus_expr_templates_unsupported");
        return check(await call(this.filter(template, params)));
      }
      throw err;
    }
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      const groups = new Map<string, { model: string; dim: number; rows: RowData[] }>();
      for (const r of records) {
        if (r.vector.length === 0 || !r.vector.every(Number.isFinite)) throw new AppError("validation_failed", { details: { field: "vector" } });
        const name = collectionName(r.model, r.vector.length);
        let g = groups.get(name);
        if (!g) groups.set(name, (g = { model: r.model, dim: r.vector.length, rows: [] }));
        g.rows.push({
          pk: physicalId(r.key, r.id),
          tenant_id: r.key.tenant_id,
          session_id: r.key.session_id,
          ns: r.key.ns,
          entity_id: r.id,
          expires_at: r.expires_at,
          vector: r.vector,
        });
      }
      for (const [name, g] of groups) {
        await this.ensureCollection(g.model, g.dim);
        for (let i = 0; i < g.rows.length; i += 500) check(await this.client.upsert({ collection_name: name, data: g.rows.slice(i, i + 500) }));
      }
    } catch (err) {
      throw unavailable(err);
    }
  }

  async search(key: ScopeKey, vector: number[], opts: { model: string; limit: number; now: number }): Promise<VectorHit[]> {
    if (vector.length === 0 || !vector.every(Number.isFinite) || opts.limit < 1) return [];
    const name = collectionName(opts.model, vector.length);
    try {
      if (!(await this.exists(name))) return [];
      await this.ensureCollection(opts.model, vector.length);
      const params = { tenant: key.tenant_id, session: key.session_id, ns: key.ns, now: Math.trunc(opts.now) };
      const res = await this.filtered(SEARCH_FILTER, params, (f) =>
        this.client.search({
          collection_name: name,
          data: vector,
          limit: Math.min(opts.limit, 1024),
          output_fields: OUTPUT,
          metric_type: "COSINE",
          consistency_level: ConsistencyLevelEnum.Strong,
          ...f,
        }),
      );
      const hits = (res.results as Array<Record<string, unknown>>).map((h) => ({
        tenant_id: String(h.tenant_id),
        session_id: String(h.session_id),
        ns: String(h.ns),
        id: String(h.entity_id),
        expires_at: Number(h.expires_at),
        score: Number(h.score),
      }));
      // A first, cheap recheck here; the engine checks every hit again against a fresh snapshot (VEC-2).
      return hits.filter(
        (h) => h.tenant_id === key.tenant_id && h.session_id === key.session_id && h.ns === key.ns && h.expires_at > opts.now && Number.isFinite(h.score),
      );
    } catch (err) {
      throw unavailable(err);
    }
  }

  private async exists(name: string): Promise<boolean> {
    if (this.ready.has(name)) return true;
    return Boolean(check(await this.client.hasCollection({ collection_name: name })).value);
  }

  async deleteScope(key: ScopeKey): Promise<void> {
    try {
      const params = { tenant: key.tenant_id, session: key.session_id, ns: key.ns };
      for (const name of await this.collections()) {
        await this.filtered(SCOPE_FILTER, params, (f) => this.client.delete({ collection_name: name, ...f }));
      }
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Bounded cleanup: finds up to `batch` primary keys matching the filter, deletes them by key, reports whether any remain. */
  private async deleteBounded(template: string, params: Params, batch: number): Promise<PurgeResult> {
    let removed = 0;
    let left = false;
    for (const name of await this.collections()) {
      const room = batch - removed;
      if (room <= 0) {
        left = left || (await this.any(name, template, params));
        if (left) break;
        continue;
      }
      await this.client.loadCollectionSync({ collection_name: name }).then(check);
      const found = await this.filtered(template, params, (f) =>
        this.client.query({ collection_name: name, output_fields: ["pk"], limit: room, consistency_level: ConsistencyLevelEnum.Strong, ...f }),
      );
      const ids = found.data.map((r) => String(r.pk));
      if (ids.length > 0) {
        check(await this.client.delete({ collection_name: name, ids }));
        removed += ids.length;
      }
      if (ids.length === room) left = left || (await this.any(name, template, params));
    }
    return { removed, done: !left };
  }

  private async any(name: string, template: string, params: Params): Promise<boolean> {
    const r = await this.filtered(template, params, (f) =>
      this.client.query({ collection_name: name, output_fields: ["pk"], limit: 1, consistency_level: ConsistencyLevelEnum.Strong, ...f }),
    );
    return r.data.length > 0;
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    try {
      return await this.deleteBounded(SESSION_FILTER, { tenant: tenantId, session: sessionId }, batch);
    } catch (err) {
      throw unavailable(err);
    }
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    try {
      return await this.deleteBounded(EXPIRED_FILTER, { now: Math.trunc(now) }, batch);
    } catch (err) {
      throw unavailable(err);
    }
  }
}

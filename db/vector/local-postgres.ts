/**
 * The local vector index's rows in PostgreSQL (`session_memory_vectors`,
 * double precision[]): same exact-similarity code as in memory, and the
 * vectors survive a restart. Identical on PGlite and PostgreSQL.
 */
import { sql, type RawBuilder } from "kysely";
import type { PurgeResult, ScopeKey } from "../../core/memory/types";
import type { VectorHit, VectorRecord } from "../../core/memory/vector-index";
import type { Db } from "../schema";
import type { VectorRows } from "./local";

export class PostgresVectorRows implements VectorRows {
  constructor(private readonly db: Db) {}

  async put(records: VectorRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += 200) {
      const rows = records.slice(i, i + 200).map((r) => ({
        tenant_id: r.key.tenant_id,
        session_id: r.key.session_id,
        ns: r.key.ns,
        id: r.id,
        model: r.model,
        vector: r.vector,
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
      vector: r.vector.map(Number),
      expires_at: r.expires_at.getTime(),
    }));
  }

  /**
   * Exact cosine similarity in SQL over the scope's rows (bounded like `scan`
   * by the namespace's entity limit), best `limit` first, ties by id. Same
   * definition as `cosine()`: a vector of another length never matches, a zero
   * vector scores 0. Shipping only the top hits instead of every vector as
   * text is what makes recall fast on PGlite and PostgreSQL alike.
   */
  async nearest(key: ScopeKey, model: string, now: number, vector: number[], limit: number): Promise<VectorHit[]> {
    if (vector.length === 0) return [];
    const r = await sql<{ id: string; expires_at: Date | string; score: number | string }>`
      select v.id, v.expires_at,
             case when s.na = 0 or s.nb = 0 then 0 else s.dot / sqrt(s.na * s.nb) end as score
      from session_memory_vectors v
      cross join lateral (
        select sum(x.a * x.b) as dot, sum(x.a * x.a) as na, sum(x.b * x.b) as nb
        from unnest(v.vector, ${vector}::double precision[]) as x(a, b)
      ) s
      where v.tenant_id = ${key.tenant_id} and v.session_id = ${key.session_id} and v.ns = ${key.ns}
        and v.model = ${model} and v.expires_at > ${new Date(now)}
        and cardinality(v.vector) = ${vector.length}
      order by score desc, v.id
      limit ${limit}`.execute(this.db);
    return r.rows.map((row) => ({
      tenant_id: key.tenant_id,
      session_id: key.session_id,
      ns: key.ns,
      id: row.id,
      expires_at: (row.expires_at instanceof Date ? row.expires_at : new Date(row.expires_at)).getTime(),
      score: Number(row.score),
    }));
  }

  async deleteScope(key: ScopeKey): Promise<void> {
    await this.db.deleteFrom("session_memory_vectors").where("tenant_id", "=", key.tenant_id).where("session_id", "=", key.session_id).where("ns", "=", key.ns).execute();
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return this.#deleteBatch(sql`tenant_id = ${tenantId} and session_id = ${sessionId}`, batch);
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
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

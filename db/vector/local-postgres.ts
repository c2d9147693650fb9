/**
 * The local vector index's rows in PostgreSQL (`session_memory_vectors`,
 * double precision[]): same exact-similarity code as in memory, and the
 * vectors survive a restart. Identical on PGlite and PostgreSQL.
 */
import { sql } from "kysely";
import type { PurgeResult, ScopeKey } from "../../core/memory/types";
import type { VectorRecord } from "../../core/memory/vector-index";
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

  async deleteScope(key: ScopeKey): Promise<void> {
    await this.db.deleteFrom("session_memory_vectors").where("tenant_id", "=", key.tenant_id).where("session_id", "=", key.session_id).where("ns", "=", key.ns).execute();
  }

  async deleteSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    const r = await sql`
      with doomed as (
        select tenant_id, session_id, ns, id, model from session_memory_vectors
        where tenant_id = ${tenantId} and session_id = ${sessionId} limit ${batch + 1}
      ), gone as (
        delete from session_memory_vectors v using (select * from doomed limit ${batch}) d
        where v.tenant_id = d.tenant_id and v.session_id = d.session_id and v.ns = d.ns and v.id = d.id and v.model = d.model
        returning 1
      )
      select (select count(*) from gone) as removed, (select count(*) from doomed) as seen`.execute(this.db);
    const row = r.rows[0] as { removed: string | number; seen: string | number };
    return { removed: Number(row.removed), done: Number(row.seen) <= batch };
  }

  async deleteExpired(now: number, batch: number): Promise<PurgeResult> {
    const at = new Date(now);
    const r = await sql`
      with doomed as (
        select tenant_id, session_id, ns, id, model from session_memory_vectors where expires_at <= ${at} limit ${batch + 1}
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

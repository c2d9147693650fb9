/**
 * PostgreSQL SessionMemoryStore (kysely): the embedded default on PGlite and
 * the production default on PostgreSQL. Load, commit and clear are the
 * protocol of core/memory/session-protocol.ts over the primitives of
 * session-storage.ts (one transaction per write, under the tenant's row
 * lock); revocation and cleanup are here. Query text is constant; values
 * travel as parameters.
 */
import { sql } from "kysely";
import { SessionProtocolStore, type SessionStorage } from "../../../core/memory/session-protocol";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { PurgeResult } from "../../../core/memory/types";
import { inTransaction } from "../../../core/transaction";
import type { Db } from "../../schema";
import { postgresSessionStorage } from "./session-storage";

export class PostgresSessionStore extends SessionProtocolStore(Object) implements SessionMemoryStore {
  readonly kind = "postgres";
  protected readonly storage: SessionStorage;
  constructor(private readonly db: Db) {
    super();
    this.storage = postgresSessionStorage(db);
  }

  async revokeSession(tenantId: string, sessionId: string, now: number): Promise<void> {
    await this.db
      .insertInto("session_memory_revocations")
      .values({ tenant_id: tenantId, session_id: sessionId, revoked_at: new Date(now) })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id"]).doNothing())
      .execute();
  }

  async purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return inTransaction(this.db, async (tx) => {
      // The namespaces' docs (fact history, predicate table) go first, in one statement; history entries count as removed.
      const docs = await sql<{ n: number | string }>`
        with old as (
          select ns, coalesce(jsonb_array_length(case when jsonb_typeof(doc->'history') = 'array' then doc->'history' end), 0) as n
          from session_memory_scopes where tenant_id = ${tenantId} and session_id = ${sessionId} and doc <> '{}'::jsonb
        )
        update session_memory_scopes s set doc = '{}'::jsonb from old
        where s.tenant_id = ${tenantId} and s.session_id = ${sessionId} and s.ns = old.ns
        returning old.n`.execute(tx);
      const historyRemoved = docs.rows.reduce((n, r) => n + Number(r.n), 0);
      const facts = await sql<{ n: number }>`
        with doomed as (
          select tenant_id, session_id, ns, fact_id from session_memory_facts
          where tenant_id = ${tenantId} and session_id = ${sessionId} limit ${batch}
        )
        delete from session_memory_facts f using doomed d
        where f.tenant_id = d.tenant_id and f.session_id = d.session_id and f.ns = d.ns and f.fact_id = d.fact_id`.execute(tx);
      let removed = Number(facts.numAffectedRows ?? 0) + historyRemoved;
      if (removed < batch) {
        const ents = await sql`
          with doomed as (
            select e.tenant_id, e.session_id, e.ns, e.id from session_memory_entities e
            where e.tenant_id = ${tenantId} and e.session_id = ${sessionId} limit ${batch - removed}
          )
          delete from session_memory_entities e using doomed d
          where e.tenant_id = d.tenant_id and e.session_id = d.session_id and e.ns = d.ns and e.id = d.id`.execute(tx);
        removed += Number(ents.numAffectedRows ?? 0);
      }
      await sql`
        update session_memory_scopes s set
          fact_count = (select count(*) from session_memory_facts f where f.tenant_id = s.tenant_id and f.session_id = s.session_id and f.ns = s.ns),
          entity_count = (select count(*) from session_memory_entities e where e.tenant_id = s.tenant_id and e.session_id = s.session_id and e.ns = s.ns)
        where s.tenant_id = ${tenantId} and s.session_id = ${sessionId}`.execute(tx);
      const left = await tx.selectFrom("session_memory_entities").select("id").where("tenant_id", "=", tenantId).where("session_id", "=", sessionId).limit(1).executeTakeFirst();
      return { removed, done: left === undefined };
    });
  }

  async purgeExpired(now: number, batch: number): Promise<PurgeResult> {
    const at = new Date(now);
    return inTransaction(this.db, async (tx) => {
      // Expired namespaces' docs (fact history) go with the first batch.
      await sql`update session_memory_scopes set doc = '{}'::jsonb where expires_at <= ${at} and doc <> '{}'::jsonb`.execute(tx);
      const facts = await sql`
        with doomed as (
          select tenant_id, session_id, ns, fact_id from session_memory_facts where expires_at <= ${at} limit ${batch}
        )
        delete from session_memory_facts f using doomed d
        where f.tenant_id = d.tenant_id and f.session_id = d.session_id and f.ns = d.ns and f.fact_id = d.fact_id`.execute(tx);
      let removed = Number(facts.numAffectedRows ?? 0);
      if (removed < batch) {
        const ents = await sql`
          with doomed as (
            select e.tenant_id, e.session_id, e.ns, e.id from session_memory_entities e
            where e.expires_at <= ${at}
              and not exists (select 1 from session_memory_facts f where f.tenant_id = e.tenant_id and f.session_id = e.session_id and f.ns = e.ns
                              and (f.subject_id = e.id or f.object_id = e.id))
            limit ${batch - removed}
          )
          delete from session_memory_entities e using doomed d
          where e.tenant_id = d.tenant_id and e.session_id = d.session_id and e.ns = d.ns and e.id = d.id`.execute(tx);
        removed += Number(ents.numAffectedRows ?? 0);
      }
      await sql`
        update session_memory_scopes s set fact_count = 0, entity_count = 0, size_bytes = 0
        where s.expires_at <= ${at} and (s.fact_count > 0 or s.entity_count > 0)
          and not exists (select 1 from session_memory_entities e where e.tenant_id = s.tenant_id and e.session_id = s.session_id and e.ns = s.ns)`.execute(tx);
      const left = await tx.selectFrom("session_memory_entities").select("id").where("expires_at", "<=", at).limit(1).executeTakeFirst();
      return { removed, done: left === undefined };
    });
  }
}

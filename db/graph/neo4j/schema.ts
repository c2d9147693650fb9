/**
 * The Neo4j schema of session memory (MEM-2), created idempotently by
 * `ensureSchema()` (every statement is IF NOT EXISTS; safe to run on every
 * start and from several processes).
 *
 *  (:SessionMemoryTenant {tenant_id, lock})           per-tenant write lock
 *  (:SessionMemoryScope {tenant_id, session_id, ns, subject_id, doc, revision,
 *     expires_at, deleted_at?, fact_count, entity_count, size_bytes})
 *  (:SessionMemoryEntity {tenant_id, session_id, ns, id, name, type, doc, expires_at})
 *  (a)-[:SESSION_FACT {tenant_id, session_id, ns, fact_id, predicate, doc, expires_at}]->(b)
 *  (:SessionMemoryRevocation {tenant_id, session_id, revoked_at})
 *  (:SessionMemoryVector {tenant_id, session_id, ns, model, id, vector, expires_at})
 *
 * Session entities never carry the code graph's `Node` label and session
 * edges are never `FACT`. Uniqueness constraints (available in Community)
 * make MERGE of the lock node and the compound keys safe under concurrency.
 */
import type { Driver } from "neo4j-driver";

export const SESSION_SCHEMA: readonly string[] = [
  "CREATE CONSTRAINT session_memory_tenant_key IF NOT EXISTS FOR (t:SessionMemoryTenant) REQUIRE t.tenant_id IS UNIQUE",
  "CREATE CONSTRAINT session_memory_scope_key IF NOT EXISTS FOR (s:SessionMemoryScope) REQUIRE (s.tenant_id, s.session_id, s.ns) IS UNIQUE",
  "CREATE CONSTRAINT session_memory_entity_key IF NOT EXISTS FOR (e:SessionMemoryEntity) REQUIRE (e.tenant_id, e.session_id, e.ns, e.id) IS UNIQUE",
  "CREATE CONSTRAINT session_memory_revocation_key IF NOT EXISTS FOR (r:SessionMemoryRevocation) REQUIRE (r.tenant_id, r.session_id) IS UNIQUE",
  "CREATE CONSTRAINT session_memory_fact_key IF NOT EXISTS FOR ()-[f:SESSION_FACT]-() REQUIRE (f.tenant_id, f.session_id, f.ns, f.fact_id) IS UNIQUE",
  "CREATE CONSTRAINT session_memory_vector_key IF NOT EXISTS FOR (v:SessionMemoryVector) REQUIRE (v.tenant_id, v.session_id, v.ns, v.model, v.id) IS UNIQUE",
  "CREATE INDEX session_memory_scope_tenant IF NOT EXISTS FOR (s:SessionMemoryScope) ON (s.tenant_id)",
  "CREATE INDEX session_memory_scope_session IF NOT EXISTS FOR (s:SessionMemoryScope) ON (s.tenant_id, s.session_id)",
  "CREATE INDEX session_memory_scope_expiry IF NOT EXISTS FOR (s:SessionMemoryScope) ON (s.expires_at)",
  "CREATE INDEX session_memory_entity_scope IF NOT EXISTS FOR (e:SessionMemoryEntity) ON (e.tenant_id, e.session_id, e.ns)",
  "CREATE INDEX session_memory_entity_session IF NOT EXISTS FOR (e:SessionMemoryEntity) ON (e.tenant_id, e.session_id)",
  "CREATE INDEX session_memory_entity_expiry IF NOT EXISTS FOR (e:SessionMemoryEntity) ON (e.expires_at)",
  "CREATE INDEX session_memory_fact_id IF NOT EXISTS FOR ()-[f:SESSION_FACT]-() ON (f.fact_id)",
  "CREATE INDEX session_memory_vector_scope IF NOT EXISTS FOR (v:SessionMemoryVector) ON (v.tenant_id, v.session_id, v.ns, v.model)",
  "CREATE INDEX session_memory_vector_session IF NOT EXISTS FOR (v:SessionMemoryVector) ON (v.tenant_id, v.session_id)",
  "CREATE INDEX session_memory_vector_expiry IF NOT EXISTS FOR (v:SessionMemoryVector) ON (v.expires_at)",
];

/** Creates the constraints and indexes (idempotent), then waits until they are online. */
export async function ensureSchema(driver: Driver, statements: readonly string[] = SESSION_SCHEMA, database?: string): Promise<void> {
  const session = driver.session(database ? { database } : {});
  try {
    for (const q of statements) {
      try {
        await session.run(q);
      } catch (err) {
        // Another process created the same rule between our IF NOT EXISTS check and ours.
        const code = (err as { code?: string }).code ?? "";
        if (!/AlreadyExists/.test(code)) throw err;
      }
    }
    await session.run("CALL db.awaitIndexes(300)");
  } finally {
    await session.close();
  }
}

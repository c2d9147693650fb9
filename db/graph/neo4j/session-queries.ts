/**
 * The constant Cypher of the Neo4j session store. Every value is a parameter;
 * every match on session data names all three scope fields ($tenant,
 * $session, $ns) on every node and edge it touches (MEM-4).
 */

const SCOPE = "tenant_id: $tenant, session_id: $session, ns: $ns";

/** Taken first in every write transaction: serializes a tenant's writers (quota and revision checks). */
export const LOCK_TENANT = "MERGE (t:SessionMemoryTenant {tenant_id: $tenant}) SET t.lock = coalesce(t.lock, 0) + 1";

const GUARD = `
OPTIONAL MATCH (r:SessionMemoryRevocation {tenant_id: $tenant, session_id: $session})
WITH count(r) > 0 AS revoked
OPTIONAL MATCH (o:SessionMemoryScope {tenant_id: $tenant, session_id: $session})
WHERE o.subject_id <> $subject
WITH revoked, count(o) > 0 AS other_subject
OPTIONAL MATCH (s:SessionMemoryScope {${SCOPE}})`;

const ROOT = `CASE WHEN s IS NULL THEN null ELSE s { .subject_id, .revision, .expires_at, .doc, deleted: s.deleted_at IS NOT NULL } END AS root`;

const ENTITIES = `COLLECT {
    MATCH (e:SessionMemoryEntity {${SCOPE}})
    WITH e ORDER BY e.id LIMIT $max_entities
    RETURN e { .id, .name, .type, .doc }
  }`;

const FACTS = `COLLECT {
    MATCH (a:SessionMemoryEntity {${SCOPE}})-[f:SESSION_FACT {${SCOPE}}]->(b:SessionMemoryEntity {${SCOPE}})
    WITH a, f, b ORDER BY f.fact_id LIMIT $max_facts
    RETURN f { .fact_id, .predicate, .doc, subject_id: a.id, object_id: b.id }
  }`;

/** The whole authoritative read in one round trip: tombstone, subject, root, and (only for a readable root) the content. */
export const LOAD = `${GUARD}
WITH revoked, other_subject, s,
     (s IS NOT NULL AND NOT revoked AND NOT other_subject AND s.deleted_at IS NULL AND s.expires_at > $now) AS readable
RETURN revoked, other_subject, ${ROOT},
  CASE WHEN readable THEN ${ENTITIES} ELSE [] END AS entities,
  CASE WHEN readable THEN ${FACTS} ELSE [] END AS facts`;

/** Inside a write transaction, after LOCK_TENANT: the root and everything the quota checks need. */
export const WRITE_STATE = `${GUARD}
CALL {
  OPTIONAL MATCH (x:SessionMemoryScope {tenant_id: $tenant})
  WITH x, (x IS NOT NULL AND x.deleted_at IS NULL AND x.expires_at > $now
           AND NOT (x.session_id = $session AND x.ns = $ns)
           AND NOT EXISTS { MATCH (:SessionMemoryRevocation {tenant_id: x.tenant_id, session_id: x.session_id}) }) AS live
  RETURN count(x) AS tenant_roots,
         sum(CASE WHEN x.session_id = $session THEN 1 ELSE 0 END) AS session_roots,
         sum(CASE WHEN live THEN x.fact_count ELSE 0 END) AS tenant_live_facts,
         sum(CASE WHEN live AND x.session_id = $session THEN x.fact_count ELSE 0 END) AS session_live_facts
}
RETURN revoked, other_subject, ${ROOT}, tenant_roots, session_roots, tenant_live_facts, session_live_facts`;

/** The stored content, for the diff a commit writes. */
export const CONTENT = `RETURN ${ENTITIES} AS entities, ${FACTS} AS facts`;

/** The namespace's entities and facts go; the root stays (emptied). `where` filters the root. */
const dropContent = (where: string) => `
MATCH (s:SessionMemoryScope {${SCOPE}})
${where}
SET s.fact_count = 0, s.entity_count = 0, s.size_bytes = 0, s.doc = '{}'
WITH s
CALL {
  MATCH (e:SessionMemoryEntity {${SCOPE}})
  DETACH DELETE e
}`;

/** Expiry on access and clear. */
export const DROP_CONTENT = dropContent("");

/** Expiry observed by a read: removes the content only if the root really is expired. */
export const DROP_EXPIRED_CONTENT = dropContent("WHERE s.expires_at <= $now");

export const CREATE_SCOPE = `
CREATE (s:SessionMemoryScope {${SCOPE}, subject_id: $subject, doc: $doc, revision: $revision,
  expires_at: $expires_at, fact_count: $fact_count, entity_count: $entity_count, size_bytes: $size_bytes,
  created_at: $now, updated_at: $now})`;

export const CREATE_CLOSED_SCOPE = `
CREATE (s:SessionMemoryScope {${SCOPE}, subject_id: $subject, doc: '{}', revision: 1,
  expires_at: $expires_at, deleted_at: $now, fact_count: 0, entity_count: 0, size_bytes: 0,
  created_at: $now, updated_at: $now})`;

/** Compare-and-set on the revision read under the lock (defence in depth). */
export const UPDATE_SCOPE = `
MATCH (s:SessionMemoryScope {${SCOPE}})
WHERE s.revision = $expected AND s.deleted_at IS NULL
SET s.revision = $revision, s.doc = $doc, s.fact_count = $fact_count, s.entity_count = $entity_count,
    s.size_bytes = $size_bytes, s.updated_at = $now
RETURN count(s) AS n`;

export const CLOSE_SCOPE = `
MATCH (s:SessionMemoryScope {${SCOPE}})
SET s.deleted_at = coalesce(s.deleted_at, $now), s.revision = s.revision + 1, s.updated_at = $now`;

export const DELETE_FACTS = `
UNWIND $ids AS fid
MATCH (:SessionMemoryEntity {${SCOPE}})-[f:SESSION_FACT {fact_id: fid}]->(:SessionMemoryEntity {${SCOPE}})
WHERE f.tenant_id = $tenant AND f.session_id = $session AND f.ns = $ns
DELETE f`;

export const DELETE_ENTITIES = `
UNWIND $ids AS eid
MATCH (e:SessionMemoryEntity {${SCOPE}, id: eid})
DETACH DELETE e`;

export const CREATE_ENTITIES = `
UNWIND $rows AS row
CREATE (e:SessionMemoryEntity {${SCOPE}, id: row.id, name: row.name, type: row.type, doc: row.doc, expires_at: $expires_at})`;

export const UPDATE_ENTITIES = `
UNWIND $rows AS row
MATCH (e:SessionMemoryEntity {${SCOPE}, id: row.id})
SET e.name = row.name, e.doc = row.doc`;

export const CREATE_FACTS = `
UNWIND $rows AS row
MATCH (a:SessionMemoryEntity {${SCOPE}, id: row.subject_id})
MATCH (b:SessionMemoryEntity {${SCOPE}, id: row.object_id})
CREATE (a)-[f:SESSION_FACT {${SCOPE}, fact_id: row.fact_id, predicate: row.predicate, doc: row.doc, expires_at: $expires_at}]->(b)
RETURN count(f) AS n`;

export const UPDATE_FACTS = `
UNWIND $rows AS row
MATCH (:SessionMemoryEntity {${SCOPE}})-[f:SESSION_FACT {fact_id: row.fact_id}]->(:SessionMemoryEntity {${SCOPE}})
WHERE f.tenant_id = $tenant AND f.session_id = $session AND f.ns = $ns
SET f.doc = row.doc`;

export const REVOKE = `
MERGE (r:SessionMemoryRevocation {tenant_id: $tenant, session_id: $session})
ON CREATE SET r.revoked_at = $now`;

// ---- cleanup (RET-1), bounded ----

/** Empties the session's namespace docs (history, predicate table); returns the old docs so history can be counted. */
export const PURGE_SESSION_DOCS = `
MATCH (s:SessionMemoryScope {tenant_id: $tenant, session_id: $session})
WHERE s.doc <> '{}'
WITH s, s.doc AS doc
SET s.doc = '{}'
RETURN doc`;

export const PURGE_EXPIRED_DOCS = `
MATCH (s:SessionMemoryScope)
WHERE s.expires_at <= $now AND s.doc <> '{}'
SET s.doc = '{}'`;

export const PURGE_SESSION_FACTS = `
MATCH (a:SessionMemoryEntity {tenant_id: $tenant, session_id: $session})-[f:SESSION_FACT]->()
WITH f LIMIT $batch
DELETE f
RETURN count(f) AS n`;

export const PURGE_SESSION_ENTITIES = `
MATCH (e:SessionMemoryEntity {tenant_id: $tenant, session_id: $session})
WITH e LIMIT $batch
DETACH DELETE e
RETURN count(e) AS n`;

export const RECOUNT_SESSION = `
MATCH (s:SessionMemoryScope {tenant_id: $tenant, session_id: $session})
SET s.fact_count = COUNT { MATCH (:SessionMemoryEntity {tenant_id: s.tenant_id, session_id: s.session_id, ns: s.ns})-[:SESSION_FACT]->() },
    s.entity_count = COUNT { MATCH (:SessionMemoryEntity {tenant_id: s.tenant_id, session_id: s.session_id, ns: s.ns}) }
WITH count(s) AS recounted
RETURN EXISTS { MATCH (:SessionMemoryEntity {tenant_id: $tenant, session_id: $session}) } AS left`;

export const PURGE_EXPIRED_FACTS = `
MATCH (a:SessionMemoryEntity)-[f:SESSION_FACT]->()
WHERE a.expires_at <= $now
WITH f LIMIT $batch
DELETE f
RETURN count(f) AS n`;

export const PURGE_EXPIRED_ENTITIES = `
MATCH (e:SessionMemoryEntity)
WHERE e.expires_at <= $now AND NOT EXISTS { (e)-[:SESSION_FACT]-() }
WITH e LIMIT $batch
DELETE e
RETURN count(e) AS n`;

export const RECOUNT_EXPIRED = `
MATCH (s:SessionMemoryScope)
WHERE s.expires_at <= $now AND (s.fact_count > 0 OR s.entity_count > 0)
  AND NOT EXISTS { MATCH (:SessionMemoryEntity {tenant_id: s.tenant_id, session_id: s.session_id, ns: s.ns}) }
SET s.fact_count = 0, s.entity_count = 0, s.size_bytes = 0
WITH count(s) AS recounted
RETURN EXISTS { MATCH (e:SessionMemoryEntity) WHERE e.expires_at <= $now } AS left`;

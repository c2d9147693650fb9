/**
 * The HugeGraph schema of session memory (MEM-2) and repository memory
 * (MEM-6), created idempotently (`ifNotExist()` everywhere; safe on every
 * start and from several processes) through `graph.schema()` in constant
 * Gremlin scripts.
 *
 * Session memory (vertex ids are CUSTOMIZE_STRING, derived in ids below):
 *  SessionMemoryTenant   {tenant_id, version, root_count?, live_fact_count?}
 *                        per-tenant commit counter (check-and-set) and quota counters (appended, so nullable)
 *  SessionMemoryScope    {tenant_id, session_id, ns, subject_id, doc, revision, expires_at,
 *                         deleted_at?, fact_count, entity_count, size_bytes, created_at, updated_at}
 *  SessionMemoryEntity   {tenant_id, session_id, ns, eid, name, type, doc, expires_at}
 *  SESSION_FACT (Entity→Entity, multiple, sort key fact_id)
 *                        {tenant_id, session_id, ns, fact_id, predicate, doc, expires_at}
 *  SessionMemoryRevocation {tenant_id, session_id, revoked_at}
 * Session entities are never `Node` and session edges are never `FACT`.
 *
 * Repository memory:
 *  Node  {repo_id, eid, name, name_key, type, props, origin_session_id?, embedding_model?, embedding?, created_at, updated_at}
 *  FACT  (Node→Node, multiple, sort key fact_id) {repo_id, fact_id, predicate, props, origin_session_id?, created_at}
 *  RepoMemoryLock {repo_id, version, node_count?, fact_count?, doc?}   per-repository counters and meta document
 *                 (history, single-valued predicates; appended, so nullable)
 *
 * Indexes (HugeGraph refuses a has() on an unindexed vertex property; a
 * composite SECONDARY index also answers its prefixes):
 *  SessionMemoryScope  secondary (tenant_id, session_id, ns)
 *  SessionMemoryEntity secondary (tenant_id, session_id, ns, eid), range (expires_at)
 *  Node                secondary (repo_id, eid), secondary (repo_id, embedding_model)
 * Edge properties are filtered after the traversal (no edge index needed).
 */
import { createHash } from "node:crypto";
import type { HugeGraphClient } from "./client";

export const SESSION_SCHEMA = `
def s = graph.schema()
// Counter labels: ifNotExist() refuses a label that exists with other properties, and append() one it already has;
// so: create when absent, append what is missing to a label created before the counters.
def hasLabel = { String label -> try { s.getVertexLabel(label); true } catch (Exception e) { false } }
def hasKeys = { String label, List keys -> (s.getVertexLabel(label).properties().collect { graph.propertyKey(it).name() } as Set).containsAll(keys) }
['tenant_id','session_id','ns','subject_id','doc','eid','name','type','fact_id','predicate'].each { s.propertyKey(it).asText().ifNotExist().create() }
['revision','expires_at','deleted_at','fact_count','entity_count','size_bytes','created_at','updated_at','revoked_at','version','root_count','live_fact_count'].each { s.propertyKey(it).asLong().ifNotExist().create() }
if (!hasLabel('SessionMemoryTenant')) s.vertexLabel('SessionMemoryTenant').useCustomizeStringId().properties('tenant_id','version','root_count','live_fact_count')
  .nullableKeys('root_count','live_fact_count').create()
else if (!hasKeys('SessionMemoryTenant', ['root_count','live_fact_count'])) s.vertexLabel('SessionMemoryTenant').properties('root_count','live_fact_count').nullableKeys('root_count','live_fact_count').append()
s.vertexLabel('SessionMemoryScope').useCustomizeStringId()
  .properties('tenant_id','session_id','ns','subject_id','doc','revision','expires_at','deleted_at','fact_count','entity_count','size_bytes','created_at','updated_at')
  .nullableKeys('deleted_at').ifNotExist().create()
s.vertexLabel('SessionMemoryEntity').useCustomizeStringId()
  .properties('tenant_id','session_id','ns','eid','name','type','doc','expires_at').ifNotExist().create()
s.vertexLabel('SessionMemoryRevocation').useCustomizeStringId().properties('tenant_id','session_id','revoked_at').ifNotExist().create()
s.edgeLabel('SESSION_FACT').sourceLabel('SessionMemoryEntity').targetLabel('SessionMemoryEntity').multiTimes()
  .properties('tenant_id','session_id','ns','fact_id','predicate','doc','expires_at').sortKeys('fact_id').ifNotExist().create()
s.indexLabel('sessionMemoryScopeByKey').onV('SessionMemoryScope').by('tenant_id','session_id','ns').secondary().ifNotExist().create()
s.indexLabel('sessionMemoryEntityByKey').onV('SessionMemoryEntity').by('tenant_id','session_id','ns','eid').secondary().ifNotExist().create()
s.indexLabel('sessionMemoryEntityByExpiry').onV('SessionMemoryEntity').by('expires_at').range().ifNotExist().create()
'ok'`;

export const REPOSITORY_SCHEMA = `
def s = graph.schema()
// Counter labels: ifNotExist() refuses a label that exists with other properties, and append() one it already has;
// so: create when absent, append what is missing to a label created before the counters.
def hasLabel = { String label -> try { s.getVertexLabel(label); true } catch (Exception e) { false } }
def hasKeys = { String label, List keys -> (s.getVertexLabel(label).properties().collect { graph.propertyKey(it).name() } as Set).containsAll(keys) }
['repo_id','eid','name','name_key','type','props','origin_session_id','embedding_model','embedding','fact_id','predicate','doc'].each { s.propertyKey(it).asText().ifNotExist().create() }
['created_at','updated_at','version','node_count','fact_count'].each { s.propertyKey(it).asLong().ifNotExist().create() }
if (!hasLabel('RepoMemoryLock')) s.vertexLabel('RepoMemoryLock').useCustomizeStringId().properties('repo_id','version','node_count','fact_count','doc')
  .nullableKeys('node_count','fact_count','doc').create()
else {
  def missing = ['node_count','fact_count','doc'].findAll { !hasKeys('RepoMemoryLock', [it]) }
  if (!missing.isEmpty()) s.vertexLabel('RepoMemoryLock').properties(*missing).nullableKeys(*missing).append()
}
s.vertexLabel('Node').useCustomizeStringId()
  .properties('repo_id','eid','name','name_key','type','props','origin_session_id','embedding_model','embedding','created_at','updated_at')
  .nullableKeys('origin_session_id','embedding_model','embedding').ifNotExist().create()
s.edgeLabel('FACT').sourceLabel('Node').targetLabel('Node').multiTimes()
  .properties('repo_id','fact_id','predicate','props','origin_session_id','created_at').sortKeys('fact_id')
  .nullableKeys('origin_session_id').ifNotExist().create()
s.indexLabel('nodeByRepo').onV('Node').by('repo_id','eid').secondary().ifNotExist().create()
s.indexLabel('nodeByRepoModel').onV('Node').by('repo_id','embedding_model').secondary().ifNotExist().create()
'ok'`;

/**
 * Runs a schema script. Two processes creating the same label at once can
 * make the loser's `ifNotExist()` fail with "existed"; a second run then
 * finds everything in place.
 */
export async function ensureSchema(client: HugeGraphClient, script: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.gremlin(script);
      return;
    } catch (err) {
      if (attempt >= 2) throw err;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
}

const SEP = "\u0000";
const hx = (parts: string[]) => createHash("sha256").update(parts.join(SEP)).digest("hex");

/**
 * Physical vertex ids: a kind prefix plus a hash of the full compound key
 * (HugeGraph string ids are bounded to 128 bytes; scope fields are up to 128
 * characters each). Equal logical ids in two scopes never share a vertex.
 */
export const vid = {
  tenant: (tenant: string) => `smt:${hx(["tenant", tenant])}`,
  scope: (tenant: string, session: string, ns: string) => `sms:${hx(["scope", tenant, session, ns])}`,
  entity: (tenant: string, session: string, ns: string, eid: string) => `sme:${hx(["entity", tenant, session, ns, eid])}`,
  revocation: (tenant: string, session: string) => `smr:${hx(["revocation", tenant, session])}`,
  repoLock: (repo: string) => `rml:${hx(["repo", repo])}`,
  node: (repo: string, eid: string) => `rn:${hx(["node", repo, eid])}`,
};

/**
 * The constant Gremlin-Groovy scripts of the HugeGraph session store. Every
 * value is a binding; every read of session data names all three scope
 * fields (tenant, session, ns) and checks them again on both endpoints of a
 * SESSION_FACT edge (MEM-4). Scripts return one JSON string
 * (groovy.json.JsonOutput) so numbers and nulls come back as plain JSON.
 *
 * Writes run inside LOCKED: a JVM monitor on an interned per-tenant string,
 * so every write of one tenant — from any process talking to this server —
 * runs one at a time on the HugeGraph server; inside it the script checks the
 * tenant's commit counter against the one the caller read (check-and-set),
 * rechecks the tombstone, applies the change, bumps the counter and commits
 * before releasing the monitor. The monitor lives in one server JVM: it is not
 * a distributed cluster lock.
 */

const ENTITY_IN_SCOPE = "hasLabel('SessionMemoryEntity').has('tenant_id', tenant).has('session_id', session).has('ns', ns)";

/** Groovy helpers shared by the scripts. */
const HELPERS = `
def refuse = { String code -> throw new IllegalStateException('codesynapse:' + code) }
def inScope = { el -> el.value('tenant_id') == tenant && el.value('session_id') == session && el.value('ns') == ns }
def rootOf = { ->
  def s = g.V(scope_vid).hasLabel('SessionMemoryScope').tryNext().orElse(null)
  if (s != null && !(s.value('tenant_id') == tenant && s.value('session_id') == session && s.value('ns') == ns)) s = null
  s
}
def rootMap = { s -> s == null ? null : [subject_id: s.value('subject_id'), revision: s.value('revision'), expires_at: s.value('expires_at'),
  doc: s.value('doc'), deleted: s.property('deleted_at').isPresent()] }
def entities = { long max -> g.V().${ENTITY_IN_SCOPE}.limit(max).toList().collect { e -> [id: e.value('eid'), name: e.value('name'), type: e.value('type'), doc: e.value('doc')] } }
def facts = { long max ->
  def out = []
  g.V().${ENTITY_IN_SCOPE}.outE('SESSION_FACT').has('tenant_id', tenant).has('session_id', session).has('ns', ns).limit(max).toList().each { f ->
    def a = f.outVertex(); def b = f.inVertex()
    if (b.label() == 'SessionMemoryEntity' && inScope(a) && inScope(b)) {
      out << [fact_id: f.value('fact_id'), predicate: f.value('predicate'), doc: f.value('doc'), subject_id: a.value('eid'), object_id: b.value('eid')]
    }
  }
  out
}
def dropContent = { s ->
  g.V().${ENTITY_IN_SCOPE}.toList().each { it.remove() }
  s.property('fact_count', 0L); s.property('entity_count', 0L); s.property('size_bytes', 0L); s.property('doc', '{}')
}
`;

/** The authoritative read, one round trip: tombstone, subject, root, and (only for a readable root) the content. */
export const LOAD = `${HELPERS}
def out = [revoked: g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext(), other_subject: false, root: null, entities: [], facts: []]
g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).has('session_id', session).toList().each { x ->
  if (x.value('subject_id') != subject) out.other_subject = true
}
def s = rootOf()
out.root = rootMap(s)
if (s != null && !out.revoked && !out.other_subject && !out.root.deleted && s.value('expires_at') > now) {
  out.entities = entities(max_entities)
  out.facts = facts(max_facts)
}
groovy.json.JsonOutput.toJson(out)`;

/**
 * What a write needs, read before the write script: the tenant's commit
 * counter, tombstone, subject, root, the tenant's and session's counts, and
 * the stored content (for the diff).
 */
export const WRITE_STATE = `${HELPERS}
def out = [tenant_version: g.V(tenant_vid).hasLabel('SessionMemoryTenant').values('version').tryNext().orElse(0L),
  revoked: g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext(), other_subject: false, root: null,
  tenant_roots: 0L, session_roots: 0L, tenant_live_facts: 0L, session_live_facts: 0L, entities: [], facts: []]
g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).toList().each { x ->
  def mine = x.value('session_id') == session
  def live = !x.property('deleted_at').isPresent() && x.value('expires_at') > now && !(mine && x.value('ns') == ns)
  out.tenant_roots++
  if (live) out.tenant_live_facts += x.value('fact_count')
  if (mine) {
    out.session_roots++
    if (live) out.session_live_facts += x.value('fact_count')
    if (x.value('subject_id') != subject) out.other_subject = true
  }
}
def s = rootOf()
out.root = rootMap(s)
if (s != null && with_content && !out.root.deleted) {
  out.entities = entities(max_entities)
  out.facts = facts(max_facts)
}
groovy.json.JsonOutput.toJson(out)`;

/**
 * Wraps a write body: per-tenant server monitor, tenant counter check-and-set
 * (expect_version < 0 skips it), tombstone recheck (unless check_revoked is
 * false), the body, counter bump, commit — all before the monitor is released.
 */
function locked(body: string): string {
  return `${HELPERS}
def result = null
synchronized (('codesynapse.hugegraph.session-memory.tenant:' + tenant).intern()) {
  def tv = g.V(tenant_vid).hasLabel('SessionMemoryTenant').tryNext().orElse(null)
  long cur = tv == null ? 0L : tv.value('version')
  if (expect_version >= 0 && cur != expect_version) refuse('tenant_changed')
  if (check_revoked && g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()) refuse('session_revoked')
  ${body}
  if (tv == null) graph.addVertex(T.label, 'SessionMemoryTenant', T.id, tenant_vid, 'tenant_id', tenant, 'version', cur + 1L)
  else tv.property('version', cur + 1L)
  g.tx().commit()
}
groovy.json.JsonOutput.toJson(result)`;
}

/** Replaces the namespace's content with the diff the caller computed; check-and-set on the scope's revision. */
export const COMMIT = locked(`
  def s = rootOf()
  if (create) { if (s != null) refuse('revision_conflict') }
  else {
    if (s == null || s.value('revision') != expected) refuse('revision_conflict')
    if (s.property('deleted_at').isPresent()) refuse('namespace_closed')
    if (s.value('subject_id') != subject) refuse('session_forbidden')
    if (s.value('expires_at') != expires_at) refuse('conflict')
  }
  drop_facts.each { r -> g.V(r.s).hasLabel('SessionMemoryEntity').outE('SESSION_FACT').has('fact_id', r.f).drop().iterate() }
  if (!drop_entities.isEmpty()) g.V(drop_entities).hasLabel('SessionMemoryEntity').drop().iterate()
  def added = [:]
  add_entities.each { r ->
    added[r.vid] = graph.addVertex(T.label, 'SessionMemoryEntity', T.id, r.vid, 'tenant_id', tenant, 'session_id', session, 'ns', ns,
      'eid', r.eid, 'name', r.name, 'type', r.type, 'doc', r.doc, 'expires_at', expires_at)
  }
  upd_entities.each { r -> def v = g.V(r.vid).hasLabel('SessionMemoryEntity').next(); v.property('name', r.name); v.property('doc', r.doc) }
  def vertex = { String id ->
    def v = added[id] ?: g.V(id).hasLabel('SessionMemoryEntity').tryNext().orElse(null)
    if (v == null || !inScope(v)) refuse('internal')
    v
  }
  add_facts.each { r ->
    vertex(r.s).addEdge('SESSION_FACT', vertex(r.o), 'tenant_id', tenant, 'session_id', session, 'ns', ns,
      'fact_id', r.f, 'predicate', r.p, 'doc', r.doc, 'expires_at', expires_at)
  }
  upd_facts.each { r -> g.V(r.s).hasLabel('SessionMemoryEntity').outE('SESSION_FACT').has('fact_id', r.f).property('doc', r.doc).iterate() }
  if (s == null) {
    graph.addVertex(T.label, 'SessionMemoryScope', T.id, scope_vid, 'tenant_id', tenant, 'session_id', session, 'ns', ns, 'subject_id', subject,
      'doc', doc, 'revision', revision, 'expires_at', expires_at, 'fact_count', fact_count, 'entity_count', entity_count, 'size_bytes', size_bytes,
      'created_at', now, 'updated_at', now)
  } else {
    s.property('revision', revision); s.property('doc', doc); s.property('fact_count', fact_count); s.property('entity_count', entity_count)
    s.property('size_bytes', size_bytes); s.property('updated_at', now)
  }
  result = revision`);

/** Clear of an existing root: contents go, the root is closed for good (MEM-5). */
export const CLOSE = locked(`
  def s = rootOf()
  if (s == null) refuse('tenant_changed')
  if (s.value('subject_id') != subject) refuse('session_forbidden')
  dropContent(s)
  if (!s.property('deleted_at').isPresent()) s.property('deleted_at', now)
  s.property('revision', s.value('revision') + 1L); s.property('updated_at', now)
  result = true`);

/** Clear of a namespace never written: a closed root (it counts toward the caps). */
export const CREATE_CLOSED = locked(`
  if (rootOf() != null) refuse('tenant_changed')
  graph.addVertex(T.label, 'SessionMemoryScope', T.id, scope_vid, 'tenant_id', tenant, 'session_id', session, 'ns', ns, 'subject_id', subject,
    'doc', '{}', 'revision', 1L, 'expires_at', expires_at, 'deleted_at', now, 'fact_count', 0L, 'entity_count', 0L, 'size_bytes', 0L,
    'created_at', now, 'updated_at', now)
  result = true`);

/** Expiry observed: removes the content only if the root really is expired; the root stays. */
export const DROP_EXPIRED = locked(`
  def s = rootOf()
  if (s != null && s.value('expires_at') <= now) dropContent(s)
  result = true`);

/** The (tenant, session) tombstone; idempotent. Taken under the tenant monitor so no writer that missed it can still commit. */
export const REVOKE = locked(`
  if (!g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()) {
    graph.addVertex(T.label, 'SessionMemoryRevocation', T.id, revocation_vid, 'tenant_id', tenant, 'session_id', session, 'revoked_at', now)
  }
  result = true`);

/** Cleanup of one session (RET-1): facts first, then entities, at most \`batch\` in all; then the session's roots are recounted. */
export const PURGE_SESSION = locked(`
  long removed = 0
  // HugeGraph refuses index queries once the transaction has changes: read both lists first.
  def fs = g.V().hasLabel('SessionMemoryEntity').has('tenant_id', tenant).has('session_id', session).outE('SESSION_FACT').limit(batch).toList()
  def es = g.V().hasLabel('SessionMemoryEntity').has('tenant_id', tenant).has('session_id', session).limit(batch).toList()
  def roots = g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).has('session_id', session).toList()
  fs.each { it.remove() }
  removed += fs.size()
  // Fewer facts than the batch: every fact of the session is gone, entities can follow.
  if (removed < batch) {
    es = es.take((int) (batch - removed))
    es.each { it.remove() }
    removed += es.size()
  }
  g.tx().commit()
  def counts = roots.collect { x ->
    def q = { -> g.V().hasLabel('SessionMemoryEntity').has('tenant_id', tenant).has('session_id', session).has('ns', x.value('ns')) }
    [x: x, ec: q().count().next(), fc: q().outE('SESSION_FACT').count().next()]
  }
  def left = g.V().hasLabel('SessionMemoryEntity').has('tenant_id', tenant).has('session_id', session).hasNext()
  counts.each { c -> c.x.property('entity_count', (long) c.ec); c.x.property('fact_count', (long) c.fc) }
  result = [removed: removed, done: !left]`);

/**
 * Cleanup of expired namespaces, any tenant (RET-1). Not under a tenant
 * monitor: it only touches roots whose deadline has passed, which no
 * quota counts as live and no commit can write again.
 */
export const PURGE_EXPIRED = `
long removed = 0
def touched = [] as Set
def fs = g.V().hasLabel('SessionMemoryEntity').has('expires_at', P.lte(now)).outE('SESSION_FACT').limit(batch).toList()
def es = g.V().hasLabel('SessionMemoryEntity').has('expires_at', P.lte(now)).limit(batch).toList()
fs.each { touched << [it.value('tenant_id'), it.value('session_id'), it.value('ns')]; it.remove() }
removed += fs.size()
if (removed < batch) {
  es = es.take((int) (batch - removed))
  es.each { touched << [it.value('tenant_id'), it.value('session_id'), it.value('ns')]; it.remove() }
  removed += es.size()
}
g.tx().commit()
def counts = touched.collect { k ->
  def q = { -> g.V().hasLabel('SessionMemoryEntity').has('tenant_id', k[0]).has('session_id', k[1]).has('ns', k[2]) }
  [roots: g.V().hasLabel('SessionMemoryScope').has('tenant_id', k[0]).has('session_id', k[1]).has('ns', k[2]).toList(),
   ec: q().count().next(), fc: q().outE('SESSION_FACT').count().next()]
}
def left = g.V().hasLabel('SessionMemoryEntity').has('expires_at', P.lte(now)).hasNext()
counts.each { c -> c.roots.each { x -> x.property('entity_count', (long) c.ec); x.property('fact_count', (long) c.fc) } }
g.tx().commit()
groovy.json.JsonOutput.toJson([removed: removed, done: !left])`;

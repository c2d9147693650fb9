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
 *
 * Quota counters (O(1) quota checks): the tenant vertex keeps `root_count`
 * (roots of the tenant in any state, lifetime) and `live_fact_count` (the sum
 * of `fact_count` over roots that are not cleared and whose session is not
 * revoked — expired roots stay in it until their content is removed, so it is
 * an upper bound of the live facts). Every locked script that changes a
 * root's facts, creates a root, clears one, revokes a session or removes
 * expired content updates them in the same transaction, under the same
 * monitor, from the values it reads there. WRITE_STATE answers the tenant's
 * counts from them and the session's from its own roots (at most
 * MAX_NAMESPACES_PER_SESSION, via the (tenant, session) index prefix); only
 * when the bound would refuse a write (or a tenant has no counters yet) does
 * it scan the tenant's roots for the exact count. The rules themselves stay
 * in core/memory (checkRoot, checkSnapshot, enforceQuotas).
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
  doc: s.value('doc'), deleted: s.property('deleted_at').isPresent(), fact_count: s.value('fact_count')] }
def opt = { el, String key -> def p = el.property(key); p.isPresent() ? p.value() : null }
def sha = { String kind, List parts -> kind + java.security.MessageDigest.getInstance('SHA-256').digest(parts.join('\u0000').getBytes('UTF-8')).encodeHex().toString() }
def revocationOf = { String t, String sid -> sha('smr:', ['revocation', t, sid]) }
def isRevoked = { String t, String sid -> g.V(revocationOf(t, sid)).hasLabel('SessionMemoryRevocation').hasNext() }
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
def tv = g.V(tenant_vid).hasLabel('SessionMemoryTenant').tryNext().orElse(null)
def rc = tv == null ? 0L : opt(tv, 'root_count')
def lc = tv == null ? 0L : opt(tv, 'live_fact_count')
def out = [tenant_version: tv == null ? 0L : tv.value('version'),
  revoked: g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext(), other_subject: false, root: null,
  tenant_roots: 0L, session_roots: 0L, tenant_live_facts: 0L, session_live_facts: 0L, exact: false,
  counted: rc != null && lc != null, init_roots: -1L, init_live: -1L, entities: [], facts: []]
g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).has('session_id', session).toList().each { x ->
  out.session_roots++
  if (!x.property('deleted_at').isPresent() && x.value('expires_at') > now && x.value('ns') != ns) out.session_live_facts += x.value('fact_count')
  if (x.value('subject_id') != subject) out.other_subject = true
}
def s = rootOf()
out.root = rootMap(s)
if (out.counted && !exact) {
  // O(1): the counters; the own root is taken out of the bound when it is counted in it.
  out.tenant_roots = rc
  out.tenant_live_facts = lc - (s != null && !out.root.deleted && !out.revoked ? s.value('fact_count') : 0L)
} else {
  // Exact: every root of the tenant (and the counters' values, for a tenant that has none yet).
  long roots = 0L; long live = 0L; long retained = 0L
  def revoked = [:]
  g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).toList().each { x ->
    roots++
    def sid = x.value('session_id')
    if (!revoked.containsKey(sid)) revoked[sid] = isRevoked(tenant, sid)
    if (x.property('deleted_at').isPresent() || revoked[sid]) return
    retained += x.value('fact_count')
    if (x.value('expires_at') > now && !(sid == session && x.value('ns') == ns)) live += x.value('fact_count')
  }
  out.tenant_roots = roots; out.tenant_live_facts = live; out.exact = true
  out.init_roots = roots; out.init_live = retained
}
if (s != null && with_content && !out.root.deleted) {
  out.entities = entities(max_entities)
  out.facts = facts(max_facts)
}
groovy.json.JsonOutput.toJson(out)`;

/**
 * Wraps a write body: per-tenant server monitor, tenant counter check-and-set
 * (expect_version < 0 skips it), tombstone recheck (unless check_revoked is
 * false), the body, commit counter bump and quota counters, commit — all
 * before the monitor is released. A tenant without quota counters gets them
 * from `init_roots`/`init_live` (an exact scan by WRITE_STATE, valid because
 * the check-and-set passed); otherwise they stay absent until such a write.
 * The body moves them with `tally(roots, liveFacts)`.
 */
function locked(body: string): string {
  return `${HELPERS}
def result = null
synchronized (('codesynapse.hugegraph.session-memory.tenant:' + tenant).intern()) {
  def tv = g.V(tenant_vid).hasLabel('SessionMemoryTenant').tryNext().orElse(null)
  long cur = tv == null ? 0L : tv.value('version')
  if (expect_version >= 0 && cur != expect_version) refuse('tenant_changed')
  if (check_revoked && g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()) refuse('session_revoked')
  Long rootCount = tv == null ? 0L : opt(tv, 'root_count')
  Long liveCount = tv == null ? 0L : opt(tv, 'live_fact_count')
  if ((rootCount == null || liveCount == null) && expect_version >= 0 && init_roots >= 0) { rootCount = init_roots; liveCount = init_live }
  def tally = { long roots, long live -> if (rootCount != null && liveCount != null) { rootCount += roots; liveCount += live } }
  ${body}
  if (tv == null) tv = graph.addVertex(T.label, 'SessionMemoryTenant', T.id, tenant_vid, 'tenant_id', tenant, 'version', cur + 1L)
  else tv.property('version', cur + 1L)
  if (rootCount != null && liveCount != null) { tv.property('root_count', rootCount); tv.property('live_fact_count', liveCount) }
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
  tally(s == null ? 1L : 0L, fact_count - (s == null ? 0L : s.value('fact_count')))
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
  if (!s.property('deleted_at').isPresent()) tally(0L, -s.value('fact_count'))
  dropContent(s)
  if (!s.property('deleted_at').isPresent()) s.property('deleted_at', now)
  s.property('revision', s.value('revision') + 1L); s.property('updated_at', now)
  result = true`);

/** Clear of a namespace never written: a closed root (it counts toward the caps). */
export const CREATE_CLOSED = locked(`
  if (rootOf() != null) refuse('tenant_changed')
  tally(1L, 0L)
  graph.addVertex(T.label, 'SessionMemoryScope', T.id, scope_vid, 'tenant_id', tenant, 'session_id', session, 'ns', ns, 'subject_id', subject,
    'doc', '{}', 'revision', 1L, 'expires_at', expires_at, 'deleted_at', now, 'fact_count', 0L, 'entity_count', 0L, 'size_bytes', 0L,
    'created_at', now, 'updated_at', now)
  result = true`);

/** Expiry observed: removes the content only if the root really is expired; the root stays. */
export const DROP_EXPIRED = locked(`
  def s = rootOf()
  if (s != null && s.value('expires_at') <= now) {
    if (!s.property('deleted_at').isPresent() && !g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()) tally(0L, -s.value('fact_count'))
    dropContent(s)
  }
  result = true`);

/** The (tenant, session) tombstone; idempotent. Taken under the tenant monitor so no writer that missed it can still commit. */
export const REVOKE = locked(`
  if (!g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()) {
    // The session's facts leave the tenant's live count with the tombstone.
    g.V().hasLabel('SessionMemoryScope').has('tenant_id', tenant).has('session_id', session).toList().each { x ->
      if (!x.property('deleted_at').isPresent()) tally(0L, -x.value('fact_count'))
    }
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
  def counted = !g.V(revocation_vid).hasLabel('SessionMemoryRevocation').hasNext()
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
  counts.each { c ->
    if (counted && !c.x.property('deleted_at').isPresent()) tally(0L, (long) c.fc - c.x.value('fact_count'))
    c.x.property('entity_count', (long) c.ec); c.x.property('fact_count', (long) c.fc)
    // The namespace doc (fact history, predicate table) goes too; its history entries count as removed.
    def doc = c.x.value('doc')
    if (doc != '{}') {
      def h = new groovy.json.JsonSlurper().parseText(doc).history
      if (h instanceof List) removed += h.size()
      c.x.property('doc', '{}')
    }
  }
  result = [removed: removed, done: !left]`);

/**
 * Cleanup of expired namespaces, any tenant (RET-1). The removal itself is not
 * under a tenant monitor: it only touches roots whose deadline has passed,
 * which no quota counts as live and no commit can write again. The recount of
 * the touched roots and the tenant's counters are then updated per tenant
 * under that tenant's monitor.
 */
export const PURGE_EXPIRED = `${HELPERS}
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
touched.groupBy { it[0] }.each { t, keys ->
  synchronized (('codesynapse.hugegraph.session-memory.tenant:' + t).intern()) {
    // Index queries first (HugeGraph refuses them in a dirty transaction), then the updates.
    def counts = keys.collect { k ->
      def q = { -> g.V().hasLabel('SessionMemoryEntity').has('tenant_id', k[0]).has('session_id', k[1]).has('ns', k[2]) }
      [roots: g.V().hasLabel('SessionMemoryScope').has('tenant_id', k[0]).has('session_id', k[1]).has('ns', k[2]).toList(),
       ec: q().count().next(), fc: q().outE('SESSION_FACT').count().next(), revoked: isRevoked(k[0], k[1])]
    }
    def tv = g.V(sha('smt:', ['tenant', t])).hasLabel('SessionMemoryTenant').tryNext().orElse(null)
    long delta = 0L
    counts.each { c -> c.roots.each { x ->
      if (!c.revoked && !x.property('deleted_at').isPresent()) delta += (long) c.fc - x.value('fact_count')
      x.property('entity_count', (long) c.ec); x.property('fact_count', (long) c.fc)
      x.property('doc', '{}')
    } }
    if (tv != null) {
      tv.property('version', tv.value('version') + 1L)
      def lc = opt(tv, 'live_fact_count')
      if (lc != null) tv.property('live_fact_count', lc + delta)
    }
    g.tx().commit()
  }
}
def left = g.V().hasLabel('SessionMemoryEntity').has('expires_at', P.lte(now)).hasNext()
groovy.json.JsonOutput.toJson([removed: removed, done: !left])`;

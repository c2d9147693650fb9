/**
 * The constant Gremlin-Groovy scripts of the HugeGraph repository store
 * (MEM-6). Every value is a binding. Every read starts from the repository's
 * `Node` vertices (index `nodeByRepo`, prefix `repo_id`) or from vertex ids
 * derived from (repo, eid), and checks `repo_id` again on the FACT edge and
 * on both of its endpoints, so nothing of another repository is ever
 * returned (MEM-4). Scripts return one JSON string.
 *
 * Writes run inside a JVM monitor on an interned per-repository string on the
 * HugeGraph server (like the session store's per-tenant monitor; not a
 * cluster lock), read everything they need before the first mutation
 * (HugeGraph refuses index queries in a dirty transaction), keep the
 * repository's node and fact counters on its `RepoMemoryLock` vertex and
 * commit before the monitor is released. A refusal throws and HugeGraph
 * rolls the request back.
 */

const HELPERS = `
def refuse = { String code -> throw new IllegalStateException('codesynapse:' + code) }
def inRepo = { el -> el.value('repo_id') == repo }
def opt = { el, String key -> def p = el.property(key); p.isPresent() ? p.value() : null }
def nodeMap = { v -> [id: v.value('eid'), label: 'Node', name: v.value('name'), type: v.value('type'), origin_session_id: opt(v, 'origin_session_id')] }
def endpoint = { v -> [id: v.value('eid'), name: v.value('name'), type: v.value('type')] }
def factMap = { e, a, b -> [fact_id: e.value('fact_id'), subject: endpoint(a), predicate: e.value('predicate'), object: endpoint(b),
  origin_session_id: opt(e, 'origin_session_id'), props: e.value('props')] }
def repoNodes = { -> g.V().hasLabel('Node').has('repo_id', repo).toList() }
// FACT edges touching these vertices whose edge and both endpoints are in the repository, deduplicated, ordered by fact id.
def factsAround = { List vs ->
  if (vs.isEmpty()) return []
  def out = [:]
  g.V(vs.collect { it.id() }).bothE('FACT').toList().each { e ->
    def f = e.value('fact_id')
    if (out.containsKey(f) || !inRepo(e)) return
    def a = e.outVertex(); def b = e.inVertex()
    if (inRepo(a) && inRepo(b)) out[f] = [e, a, b]
  }
  out.keySet().sort().collect { out[it] }
}
`;

function locked(body: string): string {
  return `${HELPERS}
def result = null
synchronized (('codesynapse.hugegraph.repo-memory:' + repo).intern()) {
  def lock = g.V(lock_vid).hasLabel('RepoMemoryLock').tryNext().orElse(null)
  long version = lock == null ? 0L : lock.value('version')
  Long nodeCount = lock == null ? null : opt(lock, 'node_count')
  Long factCount = lock == null ? null : opt(lock, 'fact_count')
  String storedDoc = lock == null ? null : opt(lock, 'doc')
  String newDoc = null
  boolean changed = false
  ${body}
  if (changed) {
    if (lock == null) {
      def kv = [T.label, 'RepoMemoryLock', T.id, lock_vid, 'repo_id', repo, 'version', version + 1L]
      if (nodeCount != null) kv += ['node_count', nodeCount]
      if (factCount != null) kv += ['fact_count', factCount]
      if (newDoc != null) kv += ['doc', newDoc]
      graph.addVertex(kv as Object[])
    } else {
      lock.property('version', version + 1L)
      if (nodeCount != null) lock.property('node_count', nodeCount)
      if (factCount != null) lock.property('fact_count', factCount)
      if (newDoc != null) lock.property('doc', newDoc)
    }
    g.tx().commit()
  }
}
groovy.json.JsonOutput.toJson(result)`;
}

/**
 * Upsert of deduplicated nodes and facts (first occurrence wins, existing
 * records keep their origin). Counters missing (a repository written before
 * they existed) are counted once, here, under the monitor. With a change
 * (\`expected\` not null): refuses unless the version is \`expected\`, removes
 * the \`end\` edges (each must exist), stores \`doc\`. The fact quota counts
 * live facts plus history entries (\`hist\`: of \`doc\`, or of the stored doc).
 */
export const UPSERT = locked(`
  if (expected != null && version != (long) expected) refuse('revision_conflict')
  def dropEdges = []
  end.each { r ->
    def e = g.V(r.s).outE('FACT').has('fact_id', r.f).toList().find { inRepo(it) }
    if (e == null) refuse('revision_conflict')
    dropEdges << e
  }
  long histCount = hist != null ? (long) hist : (storedDoc == null ? 0L : ((new groovy.json.JsonSlurper().parseText(storedDoc).history ?: []).size() as long))
  def have = [:]
  if (!nodes.isEmpty()) {
    g.V(nodes.collect { it.vid }).hasLabel('Node').toList().each { v ->
      if (!inRepo(v)) refuse('internal')
      have[v.id().asString()] = v
    }
  }
  def haveFacts = [] as Set
  facts.each { r -> if (have[r.s] != null && g.V(r.s).outE('FACT').has('fact_id', r.f).hasNext()) haveFacts << r.f }
  def addNodes = nodes.findAll { have[it.vid] == null }
  def addFacts = facts.findAll { !haveFacts.contains(it.f) }
  if (!addNodes.isEmpty() || !addFacts.isEmpty() || expected != null) {
    if (nodeCount == null) nodeCount = g.V().hasLabel('Node').has('repo_id', repo).count().next()
    if (factCount == null) factCount = g.V().hasLabel('Node').has('repo_id', repo).outE('FACT').count().next()
    if (!addNodes.isEmpty() && nodeCount + addNodes.size() > max_nodes) refuse('repo_nodes')
    if ((!addFacts.isEmpty() || expected != null) && factCount - dropEdges.size() + addFacts.size() + histCount > max_facts) refuse('repo_facts')
    dropEdges.each { it.remove() }
    factCount -= dropEdges.size()
    if (expected != null) newDoc = doc
    addNodes.each { r ->
      def kv = [T.label, 'Node', T.id, r.vid, 'repo_id', repo, 'eid', r.eid, 'name', r.name, 'name_key', r.name_key, 'type', r.type, 'props', '{}',
        'created_at', now, 'updated_at', now]
      if (origin != null) kv += ['origin_session_id', origin]
      have[r.vid] = graph.addVertex(kv as Object[])
    }
    addFacts.each { r ->
      def a = have[r.s]; def b = have[r.o]
      if (a == null || b == null) refuse('internal')
      def kv = ['repo_id', repo, 'fact_id', r.f, 'predicate', r.p, 'props', r.props, 'created_at', now]
      if (origin != null) kv += ['origin_session_id', origin]
      a.addEdge('FACT', b, kv as Object[])
    }
    nodeCount += addNodes.size()
    factCount += addFacts.size()
    changed = true
  }
  result = [nodes: addNodes.size(), facts: addFacts.size()]`);

/** Embeddings of the repository's own nodes (vertex ids derived from this repository: a foreign node id finds nothing). */
export const SET_EMBEDDINGS = locked(`
  def byVid = rows.collectEntries { [(it.vid): it.vector] }
  def vs = rows.isEmpty() ? [] : g.V(rows.collect { it.vid }).hasLabel('Node').toList().findAll { inRepo(it) }
  vs.each { v ->
    v.property('embedding_model', model); v.property('embedding', byVid[v.id().asString()]); v.property('updated_at', now)
  }
  changed = !vs.isEmpty()
  result = vs.size()`);

/** Re-ingest prune (WRK-2): FACT edges of \`source\` not in \`keep\`, then nodes of the prefix type no edge touches any more. */
export const PRUNE_SOURCE = locked(`
  def keepSet = keep as Set
  def slurper = new groovy.json.JsonSlurper()
  def all = repoNodes()
  def drop = []
  def touched = [] as Set
  if (!all.isEmpty()) {
    g.V(all.collect { it.id() }).outE('FACT').toList().each { e ->
      if (!inRepo(e)) return
      def props = slurper.parseText(e.value('props') ?: '{}')
      if (props instanceof Map && props.source == source && !keepSet.contains(e.value('fact_id'))) drop << e
      else { touched << e.outVertex().id().asString(); touched << e.inVertex().id().asString() }
    }
  }
  def orphans = all.findAll { it.value('type').startsWith(prefix) && !touched.contains(it.id().asString()) }
  drop.each { it.remove() }
  orphans.each { it.remove() }
  if (nodeCount != null) nodeCount -= orphans.size()
  if (factCount != null) factCount -= drop.size()
  changed = !drop.isEmpty() || !orphans.isEmpty()
  result = [edges: drop.size(), nodes: orphans.size()]`);

/** Erasure of one session's writes: its FACT edges, then its nodes nothing touches; shared nodes lose the origin. */
export const FORGET_ORIGIN = locked(`
  if (version != (long) expected) refuse('revision_conflict')
  def all = repoNodes()
  def drop = []
  def touched = [] as Set
  if (!all.isEmpty()) {
    g.V(all.collect { it.id() }).outE('FACT').toList().each { e ->
      if (!inRepo(e)) return
      if (opt(e, 'origin_session_id') == session) drop << e
      else { touched << e.outVertex().id().asString(); touched << e.inVertex().id().asString() }
    }
  }
  def mine = all.findAll { opt(it, 'origin_session_id') == session }
  def orphans = mine.findAll { !touched.contains(it.id().asString()) }
  def shared = mine.findAll { touched.contains(it.id().asString()) }
  def dropIds = drop.collect { it.value('fact_id') }
  drop.each { it.remove() }
  orphans.each { it.remove() }
  shared.each { it.property('origin_session_id').remove() }
  if (nodeCount != null) nodeCount -= orphans.size()
  if (factCount != null) factCount -= drop.size()
  if (doc != null) newDoc = doc
  changed = !drop.isEmpty() || !orphans.isEmpty() || !shared.isEmpty() || doc != null
  result = [edges: drop.size(), nodes: orphans.size(), ids: dropIds]`);

export const SEARCH_NODES = `${HELPERS}
def hits = repoNodes().findAll { v -> def k = v.value('name_key'); tokens.every { k.contains(it) } }
hits = hits.sort { a, b -> a.value('name_key') <=> b.value('name_key') ?: a.value('eid') <=> b.value('eid') }
groovy.json.JsonOutput.toJson(hits.take((int) lim).collect(nodeMap))`;

export const FACTS_MATCHING = `${HELPERS}
def hits = repoNodes().findAll { v -> def k = v.value('name_key'); tokens.any { k.contains(it) } }
groovy.json.JsonOutput.toJson(factsAround(hits).take((int) lim).collect { factMap(it[0], it[1], it[2]) })`;

export const FACTS_TOUCHING = `${HELPERS}
def vs = vids.isEmpty() ? [] : g.V(vids).hasLabel('Node').toList().findAll { inRepo(it) }
groovy.json.JsonOutput.toJson(factsAround(vs).take((int) lim).collect { factMap(it[0], it[1], it[2]) })`;

/** Breadth-first from the root, both directions, at most \`depth\` hops and \`lim\` edges; every node returned is an endpoint. */
export const SUBGRAPH = `${HELPERS}
def out = [nodes: [], edges: []]
def root = g.V(root_vid).hasLabel('Node').tryNext().orElse(null)
if (root != null && inRepo(root)) {
  def seen = [(root.id().asString()): root]
  def edges = [:]
  def frontier = [root]
  for (int d = 0; d < depth && !frontier.isEmpty() && edges.size() < lim; d++) {
    def next = []
    for (x in factsAround(frontier)) {
      if (edges.size() >= lim) break
      def e = x[0]; def a = x[1]; def b = x[2]
      def f = e.value('fact_id')
      if (edges.containsKey(f)) continue
      edges[f] = [id: f, label: 'FACT', src: a.value('eid'), predicate: e.value('predicate'), dst: b.value('eid'), origin_session_id: opt(e, 'origin_session_id')]
      [a, b].each { v -> def k = v.id().asString(); if (!seen.containsKey(k)) { seen[k] = v; next << v } }
    }
    frontier = next
  }
  out.nodes = seen.values().collect(nodeMap)
  out.edges = edges.values() as List
}
groovy.json.JsonOutput.toJson(out)`;

export const MISSING_EMBEDDING = `${HELPERS}
def hits = repoNodes().findAll { v -> opt(v, 'embedding_model') != model }
hits = hits.sort { a, b -> a.value('created_at') <=> b.value('created_at') ?: a.value('eid') <=> b.value('eid') }
groovy.json.JsonOutput.toJson(hits.take((int) lim).collect(nodeMap))`;

export const EMBEDDINGS = `${HELPERS}
def hits = g.V().hasLabel('Node').has('repo_id', repo).has('embedding_model', model).toList().findAll { inRepo(it) && opt(it, 'embedding') != null }
hits = hits.sort { a, b -> a.value('eid') <=> b.value('eid') }
groovy.json.JsonOutput.toJson(hits.take((int) lim).collect { [id: it.value('eid'), vector: it.value('embedding')] })`;

/** The repository's revision (its lock's version) and meta document. */
export const META = `${HELPERS}
def lock = g.V(lock_vid).hasLabel('RepoMemoryLock').tryNext().orElse(null)
groovy.json.JsonOutput.toJson([revision: lock == null ? 0L : lock.value('version'), doc: lock == null ? null : opt(lock, 'doc')])`;

/** Live FACT edges by fact id (a scan of the repository's edges) or by (subject vertex, predicate), ordered by fact id. */
export const FACTS_SELECTED = `${HELPERS}
def out = [:]
def idSet = ids as Set
if (!idSet.isEmpty()) {
  def all = repoNodes()
  if (!all.isEmpty()) g.V(all.collect { it.id() }).outE('FACT').toList().each { e -> if (inRepo(e) && idSet.contains(e.value('fact_id'))) out[e.value('fact_id')] = e }
}
def preds = predicates as Set
if (!svids.isEmpty() && !preds.isEmpty()) {
  g.V(svids).hasLabel('Node').toList().findAll { inRepo(it) }.each { v ->
    g.V(v.id()).outE('FACT').toList().each { e -> if (inRepo(e) && preds.contains(e.value('predicate'))) out[e.value('fact_id')] = e }
  }
}
def res = []
out.keySet().sort().each { f -> def e = out[f]; def a = e.outVertex(); def b = e.inVertex(); if (inRepo(a) && inRepo(b)) res << factMap(e, a, b) }
groovy.json.JsonOutput.toJson(res.take((int) lim))`;

/** One page of live FACT edges ordered by fact id, after \`after\` (export). */
export const FACTS_PAGE = `${HELPERS}
def all = repoNodes()
def es = all.isEmpty() ? [] : g.V(all.collect { it.id() }).outE('FACT').toList().findAll { inRepo(it) && it.value('fact_id') > after }
es = es.sort { it.value('fact_id') }.take((int) lim)
def res = []
es.each { e -> def a = e.outVertex(); def b = e.inVertex(); if (inRepo(a) && inRepo(b)) res << factMap(e, a, b) }
groovy.json.JsonOutput.toJson(res)`;

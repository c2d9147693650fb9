// Probe of the HugeGraph test server's REST + Gremlin API (no dependencies).
// Usage: node check.mjs [http://127.0.0.1:18080] [hugegraph]
// Prints "ok"/"NO" per call with the response status and a short body; exits 1
// if a core call fails. Leaves the graph empty (clears it at start and end).
const base = process.argv[2] ?? process.env.HUGEGRAPH_URL ?? 'http://127.0.0.1:18080';
const graph = process.argv[3] ?? process.env.HUGEGRAPH_GRAPH ?? 'hugegraph';
const G = `${base}/graphs/${graph}`;
let failed = false;

async function call(label, method, url, body, { core = true, expect = (s) => s < 300 } = {}) {
  const res = await fetch(url, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const good = expect(res.status, text);
  if (!good && core) failed = true;
  console.log(`${good ? 'ok ' : 'NO '} ${label}: ${method} ${url.replace(base, '')} -> ${res.status} ${text.slice(0, 160).replace(/\s+/g, ' ')}`);
  try { return JSON.parse(text); } catch { return text; }
}
const gremlin = (label, script, bindings = {}, opts) =>
  call(label, 'POST', `${base}/gremlin`, { gremlin: script, bindings, language: 'gremlin-groovy', aliases: { graph, g: `__g_${graph}` } }, opts);
const clear = () => call('clear graph (data + schema)', 'DELETE', `${G}/clear?confirm_message=${encodeURIComponent("I'm sure to delete all data")}`);

await call('version', 'GET', `${base}/versions`);
await call('/apis/version does not exist on 1.5.0', 'GET', `${base}/apis/version`, undefined, { core: false, expect: (s) => s === 404 });
await call('list graphs', 'GET', `${base}/graphs`);
await clear();
// schema over REST
await call('property key (TEXT)', 'POST', `${G}/schema/propertykeys`, { name: 'name', data_type: 'TEXT', cardinality: 'SINGLE' });
await call('property key (TEXT) tenant', 'POST', `${G}/schema/propertykeys`, { name: 'tenant', data_type: 'TEXT', cardinality: 'SINGLE' });
await call('property key (LONG)', 'POST', `${G}/schema/propertykeys`, { name: 'at', data_type: 'LONG', cardinality: 'SINGLE' });
await call('vertex label CUSTOMIZE_STRING ids', 'POST', `${G}/schema/vertexlabels`,
  { name: 'symbol', id_strategy: 'CUSTOMIZE_STRING', properties: ['name', 'tenant', 'at'], nullable_keys: ['at'] });
await call('edge label', 'POST', `${G}/schema/edgelabels`,
  { name: 'calls', source_label: 'symbol', target_label: 'symbol', properties: ['tenant'], frequency: 'SINGLE' });
await call('vertex label exists (GET)', 'GET', `${G}/schema/vertexlabels/symbol`);
// data over REST
await call('vertex with custom id', 'POST', `${G}/graph/vertices`, { label: 'symbol', id: 't1:a', properties: { name: 'a', tenant: 't1', at: 1 } });
await call('vertex 2', 'POST', `${G}/graph/vertices`, { label: 'symbol', id: 't1:b', properties: { name: 'b', tenant: 't1' } });
await call('edge', 'POST', `${G}/graph/edges`, { label: 'calls', outV: 't1:a', inV: 't1:b', outVLabel: 'symbol', inVLabel: 'symbol', properties: { tenant: 't1' } });
await call('get vertex by id (id is a JSON string in the path)', 'GET', `${G}/graph/vertices/${encodeURIComponent('"t1:a"')}`);
await call('list vertices by label', 'GET', `${G}/graph/vertices?label=symbol&limit=10`);
// gremlin with bindings
await gremlin('gremlin arithmetic with a binding', 'x + 1', { x: 41 }, { expect: (s, t) => s === 200 && t.includes('[42]') });
await gremlin('gremlin g alias + bindings', "g.V(vid).out('calls').values('name')", { vid: 't1:a' }, { expect: (s, t) => s === 200 && t.includes('"b"') });
await gremlin('gremlin has() on an unindexed property is refused', "g.V().hasLabel('symbol').has('tenant', t).count()", { t: 't1' },
  { core: false, expect: (s) => s >= 400 });
const il = await call('secondary index label on tenant (async: 202 + task_id)', 'POST', `${G}/schema/indexlabels`, { name: 'symbolByTenant', base_type: 'VERTEX_LABEL', base_value: 'symbol', index_type: 'SECONDARY', fields: ['tenant'] });
await gremlin('has() while the index task runs is refused (status CREATING)', "g.V().hasLabel('symbol').has('tenant', t).count()", { t: 't1' }, { core: false, expect: () => true });
for (let i = 0; i < 50; i++) {
  const t = await (await fetch(`${G}/tasks/${il.task_id}`)).json();
  if (t.task_status === 'success') { console.log(`ok  index task ${il.task_id} success after ~${i * 100} ms: GET /graphs/${graph}/tasks/{task_id} -> task_status`); break; }
  await new Promise((r) => setTimeout(r, 100));
}
await gremlin('index label via gremlin schema() (returns when usable?)', `
  graph.schema().indexLabel('symbolByName').onV('symbol').by('name').secondary().ifNotExist().create()
  g.V().hasLabel('symbol').has('name', n).count()`, { n: 'a' }, { expect: (s, t) => s === 200 && t.includes('[1]') });
await gremlin('Text.contains() needs a SEARCH index (a SECONDARY one is refused)', "g.V().hasLabel('symbol').has('name', Text.contains(n)).count()", { n: 'a' }, { core: false, expect: (s) => s >= 400 });
await gremlin('gremlin has() after index label', "g.V().hasLabel('symbol').has('tenant', t).count()", { t: 't1' }, { expect: (s, t) => s === 200 && t.includes('[2]') });
await gremlin('gremlin schema via graph.schema() + addV with bindings', `
  graph.schema().propertyKey('kind').asText().ifNotExist().create()
  graph.schema().vertexLabel('file').useCustomizeStringId().properties('name','tenant','kind').nullableKeys('kind').ifNotExist().create()
  g.addV('file').property(T.id, fid).property('name', n).property('tenant', t).next()
  g.V(fid).valueMap(true)`, { fid: 't1:f1', n: 'x.ts', t: 't1' }, { expect: (s, t) => s === 200 && t.includes('x.ts') });
await gremlin('gremlin vertex serialization', "g.V(vid)", { vid: 't1:a' });
await gremlin('gremlin drop with bindings', 'g.V(vid).drop()', { vid: 't1:f1' });
await gremlin('dropped vertex is gone', 'g.V(vid).count()', { vid: 't1:f1' }, { expect: (s, t) => s === 200 && t.includes('[0]') });
await gremlin('script error shape', 'g.V().nosuchstep()', {}, { core: false, expect: (s) => s >= 400 });
await clear();
await call('graph empty after clear', 'GET', `${G}/schema/vertexlabels`, undefined, { expect: (s, t) => s === 200 && JSON.parse(t).vertexlabels.length === 0 });
process.exit(failed ? 1 : 0);

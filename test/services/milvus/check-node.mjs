// Feature probe of a Milvus server through the Node SDK (@zilliz/milvus2-sdk-node).
// Usage: MILVUS_SDK_DIR=/dir/with/node_modules node check-node.mjs [127.0.0.1:19530]
// Prints one line per feature: "ok  <feature>" or "NO  <feature>: <error>".
// Exit code 1 if any of the CORE features (what the adapter needs) fails.
import { createRequire } from 'node:module';
import path from 'node:path';

const sdkDir = process.env.MILVUS_SDK_DIR ?? process.cwd();
const require = createRequire(path.join(sdkDir, 'noop.js'));
const { MilvusClient, DataType } = require('@zilliz/milvus2-sdk-node');

const address = process.argv[2] ?? process.env.MILVUS_URL ?? '127.0.0.1:19530';
const client = new MilvusClient({ address, timeout: 30_000 });
const results = [];
let coreFailed = false;

const unwrap = (res) => {
  // SDK returns {status:{error_code,reason,code}} or a ResStatus directly
  const st = res?.status ?? res;
  if (st && (st.error_code && st.error_code !== 'Success' || (st.code && st.code !== 0))) {
    throw new Error(`${st.error_code ?? ''} ${st.code ?? ''} ${st.reason ?? ''}`.trim());
  }
  return res;
};

async function feature(name, core, fn) {
  try {
    const detail = await fn();
    results.push(`ok  ${name}${detail ? ` -> ${detail}` : ''}`);
  } catch (e) {
    results.push(`NO  ${name}: ${String(e?.message ?? e).split('\n')[0].slice(0, 200)}`);
    if (core) coreFailed = true;
  }
}

const DIM = 8;
const vec = (seed) => Array.from({ length: DIM }, (_, i) => Math.sin(seed * 7 + i) + (i === seed % DIM ? 2 : 0));
const now = Date.now();
const fields = [
  { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 64 },
  { name: 'tenant_id', data_type: DataType.VarChar, is_partition_key: true, max_length: 64 },
  { name: 'expires_at', data_type: DataType.Int64 },
  { name: 'vector', data_type: DataType.FloatVector, dim: DIM },
];
const rows = [];
for (let i = 0; i < 20; i++) {
  rows.push({ id: `doc-${i}`, tenant_id: i % 2 ? 'a' : 'b', expires_at: i < 15 ? now + 3_600_000 : 1, vector: vec(i) });
}

async function freshCollection(name, indexType, metric, extra = {}) {
  await client.dropCollection({ collection_name: name }).catch(() => {});
  unwrap(await client.createCollection({ collection_name: name, fields, ...extra }));
  unwrap(await client.createIndex({ collection_name: name, field_name: 'vector', index_type: indexType, metric_type: metric,
    params: indexType === 'IVF_FLAT' || indexType === 'IVF_SQ8' || indexType === 'IVF_PQ' ? { nlist: 4, ...(indexType === 'IVF_PQ' ? { m: 4, nbits: 8 } : {}) }
      : indexType === 'HNSW' ? { M: 8, efConstruction: 32 } : {} }));
  unwrap(await client.insert({ collection_name: name, data: rows }));
  unwrap(await client.loadCollectionSync({ collection_name: name }));
}

async function search(name, extra) {
  const res = unwrap(await client.search({ collection_name: name, data: [vec(3)], limit: 5, output_fields: ['id', 'tenant_id', 'expires_at'], ...extra }));
  return res.results;
}

const C = 'cs_probe';
await feature('connect + listCollections', true, async () => { unwrap(await client.listCollections()); });
await feature('create collection (VarChar pk, VarChar partition key, Int64, FloatVector dim 8) + AUTOINDEX/COSINE + insert + load', true,
  () => freshCollection(C, 'AUTOINDEX', 'COSINE'));
await feature('describeCollection reports partition key', false, async () => {
  const d = unwrap(await client.describeCollection({ collection_name: C }));
  const f = d.schema.fields.find((x) => x.name === 'tenant_id');
  if (!f.is_partition_key) throw new Error('is_partition_key=false');
  return `num_partitions=${d.num_partitions ?? '?'}`;
});
await feature('search filter with exprValues {t:"a", now:0} (Node SDK option name)', true, async () => {
  const r = await search(C, { filter: 'tenant_id == {t} && expires_at > {now}', exprValues: { t: 'a', now: 0 } });
  if (!r.length || r.some((x) => x.tenant_id !== 'a')) throw new Error(`bad rows ${JSON.stringify(r)}`);
  return `${r.length} hits, top id=${r[0].id} score=${r[0].score.toFixed(4)}`;
});
await feature('search filter with exprParams {t:"a", now:0} (NOT an SDK option; checks what happens)', false, async () => {
  const r = await search(C, { filter: 'tenant_id == {t} && expires_at > {now}', exprParams: { t: 'a', now: 0 } });
  if (!r.length || r.some((x) => x.tenant_id !== 'a')) throw new Error(`bad rows ${JSON.stringify(r)}`);
  return `${r.length} hits`;
});
await feature('expires_at filter excludes expired rows (exprValues now=Date.now())', true, async () => {
  const r = await search(C, { filter: 'tenant_id == {t} && expires_at > {now}', exprValues: { t: 'a', now }, limit: 20 });
  if (r.some((x) => Number(x.expires_at) <= now)) throw new Error('expired row returned');
  return `${r.length} hits (expected 7)`;
});
await feature('COSINE score: identical vector scores ~1 and ranks first', true, async () => {
  const r = await search(C, { filter: 'tenant_id == "a"' });
  if (r[0].id !== 'doc-3' || Math.abs(r[0].score - 1) > 1e-3) throw new Error(`top=${r[0].id} ${r[0].score}`);
  return `scores=${r.map((x) => x.score.toFixed(3)).join(',')}`;
});
await feature('search hit carries the pk when output_fields omits it', false, async () => {
  const r = unwrap(await client.search({ collection_name: C, data: [vec(3)], limit: 1, output_fields: ['tenant_id'] })).results;
  if (r[0].id === undefined) throw new Error('hit has no id: list the pk in output_fields');
});
await feature('literal filter (no template) tenant_id == "b"', true, async () => {
  const r = await search(C, { filter: 'tenant_id == "b"' });
  if (r.some((x) => x.tenant_id !== 'b')) throw new Error('wrong tenant');
});
await feature('query with filter + exprValues (id in {ids}) + output_fields', true, async () => {
  const r = unwrap(await client.query({ collection_name: C, filter: 'id in {ids}', exprValues: { ids: ['doc-1', 'doc-2'] }, output_fields: ['id', 'tenant_id'] }));
  if (r.data.length !== 2) throw new Error(`got ${r.data.length}`);
});
await feature('query count(*) with filter', false, async () => {
  const r = unwrap(await client.query({ collection_name: C, filter: 'tenant_id == "a"', output_fields: ['count(*)'] }));
  return JSON.stringify(r.data[0]);
});
await feature('get by ids', false, async () => {
  const r = unwrap(await client.get({ collection_name: C, ids: ['doc-4'], output_fields: ['id'] }));
  if (r.data.length !== 1) throw new Error(`got ${r.data.length}`);
});
await feature('upsert (same pk, new tenant)', true, async () => {
  unwrap(await client.upsert({ collection_name: C, data: [{ ...rows[0], tenant_id: 'a' }] }));
  const r = unwrap(await client.query({ collection_name: C, filter: 'id == "doc-0"', output_fields: ['tenant_id'] }));
  if (r.data.length !== 1 || r.data[0].tenant_id !== 'a') throw new Error(JSON.stringify(r.data));
});
await feature('delete by filter with exprValues', true, async () => {
  const d = unwrap(await client.delete({ collection_name: C, filter: 'tenant_id == {t} && expires_at < {now}', exprValues: { t: 'b', now } }));
  const r = unwrap(await client.query({ collection_name: C, filter: 'tenant_id == "b" && expires_at < 2', output_fields: ['id'] }));
  if (r.data.length) throw new Error(`still ${r.data.length}`);
  return `delete_cnt=${d.delete_cnt}`;
});
await feature('delete by ids', true, async () => {
  unwrap(await client.delete({ collection_name: C, ids: ['doc-5'] }));
  const r = unwrap(await client.get({ collection_name: C, ids: ['doc-5'], output_fields: ['id'] }));
  if (r.data.length) throw new Error('still there');
});
await feature('flush', false, async () => { unwrap(await client.flushSync({ collection_names: [C] })); });
await feature('hasCollection / dropCollection', true, async () => {
  const h = unwrap(await client.hasCollection({ collection_name: C }));
  if (!h.value) throw new Error('hasCollection false');
  unwrap(await client.dropCollection({ collection_name: C }));
});
for (const idx of ['FLAT', 'IVF_FLAT', 'IVF_SQ8', 'IVF_PQ', 'HNSW', 'DISKANN', 'SCANN']) {
  for (const metric of ['COSINE', 'L2', 'IP']) {
    await feature(`index ${idx} / ${metric} (create, load, filtered search)`, false, async () => {
      const name = `cs_probe_${idx.toLowerCase()}_${metric.toLowerCase()}`;
      await freshCollection(name, idx, metric);
      const r = await search(name, { filter: 'tenant_id == {t}', exprValues: { t: 'a' } });
      const di = unwrap(await client.describeIndex({ collection_name: name, field_name: 'vector' }));
      await client.dropCollection({ collection_name: name });
      if (!r.length) throw new Error('no hits');
      return `top=${r[0].id} describeIndex.index_type=${di.index_descriptions?.[0]?.index_type ?? '?'}`;
    });
  }
}
await feature('num_partitions=16 on create', false, async () => {
  await freshCollection('cs_probe_np', 'AUTOINDEX', 'COSINE', { num_partitions: 16 });
  const d = unwrap(await client.describeCollection({ collection_name: 'cs_probe_np' }));
  await client.dropCollection({ collection_name: 'cs_probe_np' });
  return `num_partitions=${d.num_partitions}`;
});

console.log(results.join('\n'));
await client.closeConnection?.();
process.exit(coreFailed ? 1 : 0);

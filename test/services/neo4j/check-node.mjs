// Bolt check of the test Neo4j with the npm neo4j-driver.
// Usage: NEO4J_DRIVER_DIR=/dir/with/node_modules node check-node.mjs [bolt://127.0.0.1:7687]
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.env.NEO4J_DRIVER_DIR ?? process.cwd(), 'noop.js'));
const neo4j = require('neo4j-driver');
const url = process.argv[2] ?? process.env.NEO4J_URL ?? 'bolt://127.0.0.1:7687';

for (const [label, auth] of [
  ['basic auth neo4j/codesynapse', neo4j.auth.basic('neo4j', 'codesynapse')],
  ['no auth', undefined],
]) {
  const driver = neo4j.driver(url, auth);
  try {
    const info = await driver.getServerInfo();
    const s = driver.session();
    await s.executeWrite((tx) => tx.run('MERGE (n:CsProbe {id: $id}) SET n.at = $at', { id: 'probe', at: Date.now() }));
    const r = await s.executeRead((tx) => tx.run('MATCH (n:CsProbe {id: $id}) RETURN count(n) AS c', { id: 'probe' }));
    await s.executeWrite((tx) => tx.run('MATCH (n:CsProbe) DETACH DELETE n'));
    await s.close();
    console.log(`ok  ${label}: ${info.agent} protocol ${info.protocolVersion}, count=${r.records[0].get('c')}`);
  } catch (e) {
    console.log(`NO  ${label}: ${e.message}`);
    process.exitCode = 1;
  } finally {
    await driver.close();
  }
}

// Community-edition features the adapter may use
const driver = neo4j.driver(url);
const s = driver.session();
for (const [label, q, params] of [
  ['uniqueness constraint', 'CREATE CONSTRAINT cs_probe_id IF NOT EXISTS FOR (n:CsProbe) REQUIRE n.id IS UNIQUE', {}],
  ['range index', 'CREATE INDEX cs_probe_tenant IF NOT EXISTS FOR (n:CsProbe) ON (n.tenant)', {}],
  ['vector index (5.x syntax)', "CREATE VECTOR INDEX cs_probe_vec IF NOT EXISTS FOR (n:CsProbe) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'cosine'}}", {}],
  ['await indexes', 'CALL db.awaitIndexes(30)', {}],
  ['UNWIND batch write with params', 'UNWIND $rows AS r MERGE (n:CsProbe {id: r.id}) SET n.tenant = r.t, n.embedding = r.e', { rows: [{ id: 'a', t: 't1', e: [1, 0, 0, 0] }, { id: 'b', t: 't1', e: [0, 1, 0, 0] }] }],
  ['vector query', "CALL db.index.vector.queryNodes('cs_probe_vec', 2, $q) YIELD node, score RETURN node.id AS id, score", { q: [1, 0, 0, 0] }],
  ['node key constraint (Enterprise only)', 'CREATE CONSTRAINT cs_probe_key IF NOT EXISTS FOR (n:CsProbe) REQUIRE (n.id, n.tenant) IS NODE KEY', {}],
  ['CREATE DATABASE (Enterprise only)', 'CREATE DATABASE csprobe IF NOT EXISTS', {}],
  ['cleanup', 'MATCH (n:CsProbe) DETACH DELETE n', {}],
  ['drop schema', 'DROP CONSTRAINT cs_probe_id IF EXISTS', {}],
  ['drop schema', 'DROP INDEX cs_probe_tenant IF EXISTS', {}],
  ['drop schema', 'DROP INDEX cs_probe_vec IF EXISTS', {}],
]) {
  try {
    const db = label.startsWith('CREATE DATABASE') ? 'system' : undefined;
    const ss = db ? driver.session({ database: db }) : s;
    const r = await ss.run(q, params);
    if (db) await ss.close();
    console.log(`ok  ${label}${r.records.length ? ' -> ' + JSON.stringify(r.records.map((x) => x.toObject())).slice(0, 120) : ''}`);
  } catch (e) {
    console.log(`NO  ${label}: ${e.code ?? ''} ${e.message.split('\n')[0].slice(0, 140)}`);
  }
}
await s.close();
await driver.close();

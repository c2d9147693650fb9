/**
 * The API through a Neo4j and Milvus outage ("self-healing"): the
 * memory store (Neo4j) and the vector index (Milvus) sit behind TCP proxies.
 * While they are unreachable, `/readyz` names them and memory requests are
 * answered 503 `dependency_unavailable` (no crash, no hang, no 500); once they
 * are back the same process serves memory again, with no restart.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { waitFor } from "../support/jobs";
import { describeWithService, hostPort, probeService } from "../support/services";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const pg = await probeService("postgres");
const neo4j = await probeService("neo4j");
const milvus = await probeService("milvus");
const status = !neo4j.available ? neo4j : !milvus.available ? milvus : pg;

describeWithService(status, "the API through a Neo4j and Milvus outage", () => {
  let database: TestDatabase;
  let neoProxy: TcpProxy;
  let milvusProxy: TcpProxy;
  let srv: TestServer;
  let close: () => void = () => undefined;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    const n = hostPort(neo4j.url!, 7687);
    neoProxy = await startTcpProxy(n.host, n.port);
    const m = hostPort(milvus.url!.includes("://") ? milvus.url! : `tcp://${milvus.url}`, 19530);
    milvusProxy = await startTcpProxy(m.host, m.port);
    const ctx = testContext(database.db, {
      env: {
        MEMORY_STORE: "neo4j",
        NEO4J_URL: `bolt://${neoProxy.host}:${neoProxy.port}`,
        NEO4J_USER: process.env.NEO4J_USER ?? "neo4j",
        NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? "",
        VECTOR_INDEX: "milvus",
        MILVUS_URL: `${milvusProxy.host}:${milvusProxy.port}`,
      },
    });
    ctx.memory = buildMemoryServices(ctx.config, database.db, ctx.clock, ctx.logger);
    close = () => ctx.memory?.close();
    srv = await listen(createApp(ctx));
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    close();
    await neoProxy?.close();
    await milvusProxy?.close();
    await database?.close();
  });

  it("answers 503 dependency_unavailable while they are away, names them in /readyz, and serves again once they are back", async () => {
    const a = await seedAccount(database.db);
    const headers = (await registerThread(srv.url, a.apiKey)).headers;
    const sm = `/api/v1/repos/${a.repoId}/session-memory`;
    const write = (s: string) => call(srv.url, "POST", sm, { headers, body: { triples: [{ subject: s, predicate: "uses", object: "TokenStore" }] } });
    expect((await write("AuthService")).status).toBe(200);
    expect((await call(srv.url, "GET", "/readyz")).status).toBe(200);

    await neoProxy.cut();
    await milvusProxy.cut();
    const t0 = Date.now();
    const ready = await call(srv.url, "GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body.error.details.checks).toMatchObject({ database: "ok", memory_store_neo4j: "unavailable", vector_index_milvus: "unavailable" });
    const during = await write("BillingJob");
    expect([during.status, during.body?.error?.code]).toEqual([503, "dependency_unavailable"]);
    const read = await call(srv.url, "GET", sm, { headers });
    expect([read.status, read.body?.error?.code]).toEqual([503, "dependency_unavailable"]);
    expect(Date.now() - t0).toBeLessThan(20_000); // answered, not hung on the drivers' retries
    console.log(`[memory outage] /readyz and two memory requests answered in ${((Date.now() - t0) / 1000).toFixed(2)} s while Neo4j and Milvus were away`);

    await neoProxy.restore();
    await milvusProxy.restore();
    const back = Date.now();
    await waitFor(async () => (await call(srv.url, "GET", "/readyz")).status === 200, 60_000, 200);
    await waitFor(async () => (await write("BillingJob")).status === 200, 30_000, 200);
    const facts = await call(srv.url, "GET", sm, { headers });
    expect(facts.status).toBe(200);
    console.log(`[memory outage] memory served again ${((Date.now() - back) / 1000).toFixed(2)} s after Neo4j and Milvus returned`);
  }, 180_000);
});

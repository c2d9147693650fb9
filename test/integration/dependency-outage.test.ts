/**
 * The API through a database outage ("self-healing"), on the real
 * PostgreSQL server behind a TCP proxy: while it is unreachable `/readyz` says
 * which dependency is down and every request is answered 503
 * `dependency_unavailable` promptly (no crash, no hang, no 500); once it is
 * back the same process serves again, with no restart.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { openDatabase, type OpenDatabase } from "../../db/database";
import type { Dispatcher } from "../../queues/dispatch/dispatcher";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";
import { proxyFor, type TcpProxy } from "../support/tcp-proxy";
import { identityStore } from "../../db/sql/identity/store";

const pgStatus = await probeService("postgres");
const redisStatus = await probeService("redis");

describeWithService(pgStatus, "the API through a database outage [postgres]", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let proxied: OpenDatabase;
  let srv: TestServer;
  let dispatcher: Dispatcher | undefined;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]!.s;
    const through = await proxyFor(pgStatus.url!, 5432);
    proxy = through.proxy;
    proxied = await openDatabase({ url: through.url, schema, poolSize: 4 });
    const ctx = testContext(proxied.db);
    if (redisStatus.available) {
      const { queue } = createJobQueue({ db: proxied.db, identity: identityStore, clock: ctx.clock, logger: ctx.logger, registry: new JobRegistry(), redisUrl: redisStatus.url!, bullPrefix: "cs-readyz" });
      ctx.jobs = queue;
      dispatcher = queue.dispatcher;
    }
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await srv?.close();
    await dispatcher?.close();
    await proxied?.close();
    await proxy?.close();
    await database?.close();
  });

  it("answers 503 dependency_unavailable while PostgreSQL is unreachable, names it in /readyz, and serves again once it is back", async () => {
    const a = await seedAccount(database.db);
    const redis = redisStatus.available ? { redis: "ok" } : {};
    expect((await call(srv.url, "GET", "/readyz")).body).toEqual({ status: "ready", checks: { database: "ok", ...redis } });
    expect((await registerThread(srv.url, a.apiKey)).session).toBeTruthy();

    await proxy.cut();
    const t0 = Date.now();
    const ready = await call(srv.url, "GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ error: { code: "dependency_unavailable", details: { checks: { database: "unavailable", ...redis } } } });
    expect(JSON.stringify(ready.body)).not.toMatch(/127\.0\.0\.1|postgres:|ECONN/);
    for (let i = 0; i < 5; i++) {
      const r = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) });
      expect([r.status, (r.body as { error?: { code?: string } }).error?.code]).toEqual([503, "dependency_unavailable"]);
    }
    expect(Date.now() - t0).toBeLessThan(15_000); // answered, not hung

    await proxy.restore();
    const back = Date.now();
    await waitFor(async () => (await call(srv.url, "GET", "/readyz")).status === 200, 10_000, 50);
    const me = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(a.apiKey) });
    expect(me.status).toBe(200);
    console.log(`[outage] the API served again ${((Date.now() - back) / 1000).toFixed(2)} s after PostgreSQL returned`);
  });
});

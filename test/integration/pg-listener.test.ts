/**
 * The LISTEN connection comes back by itself (JOB-8, db/pg-listener.ts), on the
 * real PostgreSQL server: after the server terminates its backend, and after an
 * outage in which reconnecting fails for a while. Once it listens again it says
 * so (the job sources then look for work they missed) and notifications arrive.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listenResilient } from "../../db/pg-listener";
import { waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";
import { proxyFor } from "../support/tcp-proxy";

const pgStatus = await probeService("postgres");

describeWithService(pgStatus, "LISTEN reconnects [postgres]", () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: pgStatus.url! });
    await admin.connect();
  });
  afterAll(async () => admin?.end());

  const notify = (channel: string, payload: string) => admin.query("select pg_notify($1, $2)", [channel, payload]);
  /** Listens on a fresh channel and records what arrives and how often it reconnected. */
  async function listener(connectionString: string) {
    const channel = `cs_test_${randomBytes(4).toString("hex")}`;
    const seen: string[] = [];
    let reconnects = 0;
    const unlisten = await listenResilient({ config: { connectionString }, channel, onPayload: (p) => seen.push(p), onReconnect: () => reconnects++ });
    return { channel, seen, reconnects: () => reconnects, unlisten };
  }

  it("after the server terminates its backend it listens again, says so, and receives", async () => {
    const l = await listener(pgStatus.url!);
    try {
      await notify(l.channel, "before");
      await waitFor(async () => l.seen.includes("before"), 5_000, 20);
      const killed = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where query = $1", [`LISTEN ${l.channel}`]);
      expect(killed.rowCount).toBe(1);
      await waitFor(async () => l.reconnects() === 1, 10_000, 20);
      await notify(l.channel, "after");
      await waitFor(async () => l.seen.includes("after"), 5_000, 20);
      expect(l.seen).toEqual(["before", "after"]);
    } finally {
      await l.unlisten();
    }
  });

  it("reconnects once the server is reachable again after an outage; after unlisten it stays away", async () => {
    const { proxy, url } = await proxyFor(pgStatus.url!, 5432);
    const l = await listener(url);
    try {
      await proxy.cut(); // drops the listener's connection; its reconnects are refused
      await new Promise((r) => setTimeout(r, 2_000));
      expect(l.reconnects()).toBe(0);
      await proxy.restore();
      await waitFor(async () => l.reconnects() === 1, 15_000, 20); // backoff is capped at 5 s
      await notify(l.channel, "back");
      await waitFor(async () => l.seen.includes("back"), 5_000, 20);
      await l.unlisten();
      const listening = async () => (await admin.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where query = $1", [`LISTEN ${l.channel}`])).rows[0]!.n;
      await waitFor(async () => (await listening()) === 0, 5_000, 50);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await listening()).toBe(0);
    } finally {
      await l.unlisten();
      await proxy.close();
    }
  });
});

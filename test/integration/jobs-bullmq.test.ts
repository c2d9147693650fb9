/**
 * BullMQ dispatch (JOB-2, JOB-8) on real Redis — a single server and a Redis Cluster
 * (REDIS_CLUSTER_NODES) — with the job rows on PGlite and on PostgreSQL: the payload is the
 * row id only, the same claim function runs, and FLUSHALL with jobs waiting loses none of them.
 * The cluster's own suite (hash slots, failover) is jobs-bullmq-cluster.test.ts.
 */
import { randomBytes } from "node:crypto";
import { Cluster, Redis } from "ioredis";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { BullMqDispatcher, messageIds, type BullOptions } from "../../queues/dispatch/bullmq";
import { clusterNodesOf } from "../../queues/dispatch/redis-connection";
import { defineHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { startPrivateRedis, type PrivateRedis } from "../support/private-redis";
import { clusterKeys, probeRedisCluster } from "../support/redis-cluster";
import { describeWithService, probeService, REQUIRE_SERVICES } from "../support/services";

const clock = systemClock;
const redisStatus = await probeService("redis");
const clusterStatus = await probeRedisCluster();

const noop = defineHandler({
  kind: "test.bull",
  pool: "ingest",
  restartable: true,
  maxAttempts: 3,
  params: anyParams,
  async run({ job, auth }) {
    return { result: { n: 1 }, persist: async (tx) => void (await sql`insert into job_effects (job_id, session_id) values (${job.id}, ${auth!.identity.session_id})`.execute(tx)) };
  },
});

/** Every string value stored under a key prefix: hashes, lists, sets, sorted sets, strings, streams. */
async function dumpPrefix(client: Redis | Cluster, prefix: string): Promise<string> {
  const keys = client instanceof Cluster ? await clusterKeys(client, `${prefix}:*`) : await client.keys(`${prefix}:*`);
  const out: string[] = [];
  for (const k of keys) {
    const type = await client.type(k);
    if (type === "hash") out.push(JSON.stringify(await client.hgetall(k)));
    else if (type === "list") out.push(JSON.stringify(await client.lrange(k, "0", "-1")));
    else if (type === "set") out.push(JSON.stringify(await client.smembers(k)));
    else if (type === "zset") out.push(JSON.stringify(await client.zrange(k, "0", "-1")));
    else if (type === "string") out.push(String(await client.get(k)));
    else if (type === "stream") out.push(JSON.stringify(await client.xrange(k, "-", "+")));
  }
  return out.join("\n");
}

describeWithService(redisStatus, "BullMQ dispatch", async () => {
  await describeEachDatabase("BullMQ dispatch", (t) => {
    let redis: Redis;
    beforeAll(async () => {
      await ensureEffectsTable(t().db);
      redis = new Redis(redisStatus.url!);
    });
    afterAll(async () => redis?.quit());

    // The same test on a single Redis and on the Redis Cluster.
    const targets: Array<{ name: string; status: typeof redisStatus; bull: () => BullOptions; client: () => Promise<Redis | Cluster> }> = [
      { name: "single Redis", status: redisStatus, bull: () => ({ url: redisStatus.url! }), client: async () => redis },
      {
        name: "Redis Cluster",
        status: clusterStatus,
        bull: () => ({ cluster: clusterStatus.nodes }),
        client: async () => {
          const c = new Cluster(clusterNodesOf(clusterStatus.nodes));
          await new Promise((resolve) => c.once("ready", resolve));
          return c;
        },
      },
    ];
    for (const target of targets) {
      it(`[${target.name}] the BullMQ payload is row ids only: no token, cookie, key or identity; the job then runs through the shared claim`, async (ctx) => {
        if (!target.status.available) {
          if (REQUIRE_SERVICES) throw new Error(`REQUIRE_SERVICES=1 but ${target.status.reason}`);
          console.warn(`[skip] ${target.name}: ${target.status.reason}`);
          ctx.skip();
          return;
        }
        const bull = { ...target.bull(), prefix: `cs-test-${randomBytes(4).toString("hex")}` };
        const client = await target.client();
        const e = await seedExecution(t().db, clock);
        const dispatcher = new BullMqDispatcher(bull);
        const job = await enqueueFor(t().db, clock, e, { kind: "test.bull", pool: "ingest", params: { path: "/src" } });
        const more = [
          await enqueueFor(t().db, clock, e, { kind: "test.bull", pool: "ingest", params: { path: "/a" } }),
          await enqueueFor(t().db, clock, e, { kind: "test.bull", pool: "ingest", params: { path: "/b" } }),
        ];
        // Rows dispatched together share one message, named by its first row; its data is their ids and nothing else.
        await dispatcher.dispatch([job, ...more].map((r) => ({ ...r, run_at: job.run_at })), clock.now());
        const stored = await dumpPrefix(client, bull.prefix);
        expect(stored).toContain(job.id);
        const bj = await dispatcher.queue("ingest").getJob(`${job.id}-0`);
        expect(bj?.data).toEqual({ ids: [job.id, ...more.map((r) => r.id)] });
        expect(await dispatcher.queue("ingest").getJobCounts("wait", "delayed")).toEqual({ wait: 1, delayed: 0 });
        for (const secret of [e.account.apiKey, e.account.password, e.identity.session_id, e.account.keyId, e.account.userId]) {
          expect(stored).not.toContain(secret);
        }
        await dispatcher.close();
        const th = await startTestHost(t(), [noop], { bull });
        try {
          const r = await waitFor(async () => {
            const x = await jobRow(t().db, job.id);
            return x.status === "succeeded" && x;
          });
          expect(r.attempts).toBe(1);
          expect(await effectsOf(t().db, job.id)).toEqual([{ session_id: e.identity.session_id, note: null }]);
          for (const m of more) {
            expect((await waitFor(async () => (await jobRow(t().db, m.id)).status === "succeeded")) && (await jobRow(t().db, m.id)).attempts).toBe(1);
            expect(await effectsOf(t().db, m.id)).toEqual([{ session_id: e.identity.session_id, note: null }]);
          }
        } finally {
          await th.stop();
          const keys = client instanceof Cluster ? await clusterKeys(client, `${bull.prefix}:*`) : await client.keys(`${bull.prefix}:*`);
          for (const k of keys) await client.del(k);
          if (client !== redis) await client.quit();
        }
      });
    }

    it("FLUSHALL with jobs waiting: the reconciler re-dispatches every queued row and all complete once", async (ctx) => {
      let priv: PrivateRedis;
      try {
        priv = await startPrivateRedis();
      } catch (err) {
        if (REQUIRE_SERVICES) throw err;
        console.warn(`[skip] FLUSHALL test: ${(err as Error).message}`);
        ctx.skip();
        return;
      }
      const bull = { url: priv.url, prefix: `cs-test-${randomBytes(4).toString("hex")}` };
      const own = new Redis(priv.url);
      try {
        const e = await seedExecution(t().db, clock);
        const dispatcher = new BullMqDispatcher(bull);
        const jobs = [];
        for (let i = 0; i < 12; i++) jobs.push(await enqueueFor(t().db, clock, e, { kind: "test.bull", pool: "ingest" }));
        await dispatcher.dispatch(jobs, clock.now());
        // Rows inserted in the same millisecond share a run_at and so may share a message: every row
        // is in exactly one waiting message, however the twelve were batched.
        const waiting = await dispatcher.queue("ingest").getWaiting();
        expect(waiting.flatMap((m) => messageIds(m.data)).sort()).toEqual(jobs.map((j) => j.id).sort());
        expect(await own.flushall()).toBe("OK");
        expect(await own.dbsize()).toBe(0);
        await dispatcher.close();
        const th = await startTestHost(t(), [noop], { bull });
        try {
          for (const j of jobs) {
            await waitFor(async () => (await jobRow(t().db, j.id)).status === "succeeded", 20_000);
            expect(await effectsOf(t().db, j.id)).toHaveLength(1);
            expect((await jobRow(t().db, j.id)).attempts).toBe(1);
          }
        } finally {
          await th.stop();
        }
      } finally {
        await own.quit();
        await priv.stop();
      }
    });
  });
});

/**
 * BullMQ dispatch on a real Redis Cluster: three masters, three replicas.
 * - On the shared cluster (test/services/redis-cluster.sh): every pool's queue keeps all its
 *   keys in one hash slot (the `{jobs-<pool>}` hash tag), the pools spread over the masters,
 *   and jobs of every pool run once through the shared claim.
 * - On a private cluster this file starts: the master serving the ingest queue is killed while
 *   jobs flow; its replica takes over and no job is lost (each runs, and persists, once).
 * The job rows are on a fresh PostgreSQL schema.
 */
import { randomBytes } from "node:crypto";
import { Cluster } from "ioredis";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { BullMqDispatcher, queueName } from "../../queues/dispatch/bullmq";
import { clusterNodesOf } from "../../queues/dispatch/redis-connection";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { clusterKeys, probeRedisCluster, startPrivateCluster, type PrivateCluster } from "../support/redis-cluster";
import { describeWithService, probeService } from "../support/services";

const clock = systemClock;
const POOLS = ["ingest", "ai", "embedding", "fix", "cleanup"] as const;
const pgStatus = await probeService("postgres");
const shared = await probeRedisCluster();
const status = !pgStatus.available ? pgStatus : shared;

const handlers: JobHandler[] = POOLS.map((pool) =>
  defineHandler({
    kind: `test.cluster.${pool}`,
    pool,
    restartable: true,
    maxAttempts: 3,
    params: anyParams,
    async run({ job, auth }) {
      return { result: { n: 1 }, persist: async (tx) => void (await sql`insert into job_effects (job_id, session_id) values (${job.id}, ${auth!.identity.session_id})`.execute(tx)) };
    },
  }),
);

describeWithService(status, "BullMQ dispatch on a Redis Cluster [postgres]", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    await ensureEffectsTable(database.db);
  });
  afterAll(async () => database?.close());

  const allDone = async (ids: string[], ms: number) => {
    for (const id of ids) await waitFor(async () => (await jobRow(database.db, id)).status === "succeeded", ms, 50);
    for (const id of ids) expect(await effectsOf(database.db, id), `job ${id} persisted once`).toHaveLength(1);
  };

  it("each queue's keys share one slot, the pools spread over the masters, and every pool's jobs run once", async () => {
    const bull = { cluster: shared.nodes, prefix: `cs-test-${randomBytes(4).toString("hex")}` };
    const e = await seedExecution(database.db, clock);
    const dispatcher = new BullMqDispatcher(bull);
    const jobs = [];
    for (const pool of POOLS) for (let i = 0; i < 4; i++) jobs.push(await enqueueFor(database.db, clock, e, { kind: `test.cluster.${pool}`, pool }));
    await dispatcher.dispatch(jobs, clock.now());
    const admin = new Cluster(clusterNodesOf(shared.nodes));
    await new Promise((resolve) => admin.once("ready", resolve));
    try {
      const masters = new Set<string>();
      for (const pool of POOLS) {
        const keys = await clusterKeys(admin, `${bull.prefix}:${queueName(pool)}:*`);
        expect(keys.length).toBeGreaterThan(0);
        const slots = new Set(await Promise.all(keys.map(async (k) => Number(await admin.cluster("KEYSLOT", k)))));
        expect(slots.size, `${pool}: one slot`).toBe(1);
        const slot = [...slots][0]!;
        const owner = admin.slots[slot]?.[0];
        expect(owner).toBeDefined();
        masters.add(owner!);
      }
      expect(masters.size).toBeGreaterThanOrEqual(2);
      await dispatcher.close();
      const th = await startTestHost(database, handlers, { bull });
      try {
        await allDone(jobs.map((j) => j.id), 30_000);
      } finally {
        await th.stop();
      }
    } finally {
      for (const node of admin.nodes("master")) {
        const keys = await node.keys(`${bull.prefix}:*`);
        for (const k of keys) await node.del(k);
      }
      await admin.quit();
    }
  });

  it("a master dies while jobs flow: its replica takes over and no job is lost", async () => {
    let cluster: PrivateCluster | undefined;
    try {
      cluster = await startPrivateCluster();
      const bull = { cluster: cluster.nodes, prefix: `cs-test-${randomBytes(4).toString("hex")}` };
      const e = await seedExecution(database.db, clock);
      const ingest = handlers.filter((h) => h.pool === "ingest");
      const th = await startTestHost(database, ingest, { bull });
      try {
        const before = [];
        for (let i = 0; i < 20; i++) before.push(await enqueueFor(database.db, clock, e, { kind: "test.cluster.ingest", pool: "ingest" }));
        await th.dispatcher.dispatch(before, clock.now());
        const slot = cluster.keyslot(queueName("ingest"));
        const master = cluster.masterOf(slot)!;
        const replica = cluster.replicaOf(master);
        await cluster.kill(master);
        const killedAt = Date.now();
        const promoted = waitFor(async () => cluster!.masterOf(slot) === replica && Date.now(), 30_000, 100);
        // Submissions go on through the failover. A dispatch caught by the kill fails, as a submission's
        // dispatch may (it is logged, never thrown): the reconciler re-dispatches the row (JOB-8).
        const after = [];
        let failed = 0;
        for (let i = 0; i < 20; i++) {
          const j = await enqueueFor(database.db, clock, e, { kind: "test.cluster.ingest", pool: "ingest" });
          after.push(j);
          await th.dispatcher.dispatch([j], clock.now()).catch(() => void failed++);
        }
        console.log(`[cluster] replica 127.0.0.1:${replica} serves slot ${slot} ${(await promoted) - killedAt} ms after its master was killed`);
        await allDone([...before, ...after].map((j) => j.id), 60_000);
        console.log(`[cluster] all 40 jobs succeeded once, ${Date.now() - killedAt} ms after the kill (${failed} dispatches failed in the failover window)`);
      } finally {
        await th.stop();
      }
    } finally {
      await cluster?.stop();
    }
  }, 120_000);
});

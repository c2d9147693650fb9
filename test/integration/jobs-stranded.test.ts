/**
 * No job stranded (JOB-3, JOB-4, JOB-8), on the real PostgreSQL server and
 * real Redis, with real worker processes, on both dispatch paths:
 * - a row whose BullMQ message BullMQ failed is dispatched again (the class of
 *   "a message that stalled too often" and "a claim that threw");
 * - a claim that fails while the database is unreachable: the job completes
 *   once it is back;
 * - a job whose worker is SIGKILLed twice still completes, once;
 * - a SIGKILL storm (>= 50 kills of workers holding running jobs): every job is
 *   terminal within the reconciler's bound after the storm, none ran its
 *   persist twice.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Queue, Worker } from "bullmq";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { openDatabase, type OpenDatabase } from "../../db/database";
import type { Db } from "../../db/schema";
import { bullJobId, BullMqDispatcher, connectionOf, queueName, type BullOptions } from "../../queues/dispatch/bullmq";
import type { Dispatcher } from "../../queues/dispatch/dispatcher";
import { PostgresDispatcher } from "../../queues/dispatch/postgres";
import { TERMINAL_STATUSES, type JobRow } from "../../queues/jobs";
import { defineHandler } from "../../workers/handler";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";
import { proxyFor } from "../support/tcp-proxy";

const clock = systemClock;
const pgStatus = await probeService("postgres");
const redisStatus = await probeService("redis");

/** The timing every worker here runs with (JOB_LEASE_MS, JOB_RECONCILE_MS, JOB_STALE_MS). */
const LEASE_MS = 1500;
const RECONCILE_MS = 300;
const STALE_MS = 1000;
/** What the reconciler promises after a fault: a lease runs out or a row goes stale, and one pass later it is dispatched again. */
const RECONCILE_BOUND_MS = LEASE_MS + STALE_MS + 2 * RECONCILE_MS;

type DispatchPath = "postgres" | "bullmq";

const quickHandler = (kind: string) =>
  defineHandler({
    kind,
    pool: "ingest",
    restartable: true,
    maxAttempts: 3,
    params: anyParams,
    async run({ job, auth }) {
      return { persist: async (tx) => void (await sql`insert into job_effects (job_id, session_id, note) values (${job.id}, ${auth!.identity.session_id}, 'parent')`.execute(tx)) };
    },
  });

interface ChildWorker {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<NodeJS.Signals | null>;
  output: () => string;
}

function spawnWorker(env: Record<string, string>): ChildWorker {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/job-worker-child.ts")], {
    env: { ...process.env, CHILD_LEASE_MS: String(LEASE_MS), CHILD_RECONCILE_MS: String(RECONCILE_MS), CHILD_STALE_MS: String(STALE_MS), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  child.stdout!.on("data", (d) => {
    out += String(d);
    if (out.includes("READY")) ready();
  });
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_c, sig) => r(sig)));
  void exited.then(() => ready());
  return { child, ready: readyP, exited, output: () => out };
}

async function statusCounts(db: Db, ids: readonly string[]): Promise<Record<string, number>> {
  const r = await sql<{ status: string; n: string }>`select status, count(*) as n from jobs where id = any(${[...ids]}::text[]) group by status`.execute(db);
  return Object.fromEntries(r.rows.map((x) => [x.status, Number(x.n)]));
}

function notTerminal(counts: Record<string, number>): number {
  return Object.entries(counts).reduce((n, [s, c]) => n + (TERMINAL_STATUSES.includes(s as JobRow["status"]) ? 0 : c), 0);
}

describeWithService(pgStatus, "no job stranded [postgres]", () => {
  let database: TestDatabase;
  let schema: string;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    await ensureEffectsTable(database.db);
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]!.s;
  });
  afterAll(async () => database?.close());

  const paths: DispatchPath[] = ["postgres", "bullmq"];
  const bullFor = (p: DispatchPath): BullOptions | undefined => (p === "bullmq" ? { url: redisStatus.url!, prefix: `cs-strand-${randomBytes(4).toString("hex")}` } : undefined);
  const dispatcherFor = (bull: BullOptions | undefined, db: Db): Dispatcher => (bull ? new BullMqDispatcher(bull) : new PostgresDispatcher(db));
  const childEnv = (bull: BullOptions | undefined, mode: "block" | "storm"): Record<string, string> => ({
    CHILD_DATABASE_URL: pgStatus.url!,
    CHILD_SCHEMA: schema,
    CHILD_MODE: mode,
    ...(bull ? { CHILD_REDIS_URL: bull.url, CHILD_BULL_PREFIX: bull.prefix! } : {}),
  });
  /** Skips the BullMQ variant when Redis is missing (a failure under REQUIRE_SERVICES=1, through the probe). */
  const available = (p: DispatchPath) => p === "postgres" || redisStatus.available;

  it.runIf(redisStatus.available)("a row whose BullMQ message was failed by BullMQ is dispatched again and completes once", async () => {
    const db = database.db;
    const bull = bullFor("bullmq")!;
    const dispatcher = new BullMqDispatcher(bull);
    const e = await seedExecution(db, clock);
    const row = await enqueueFor(db, clock, e, { kind: "test.failedmsg", pool: "ingest" });
    await dispatcher.dispatch([row], clock.now());
    // BullMQ fails the message (as it does for a message stalled more than its limit): the id stays in its failed set.
    const breaker = new Worker(queueName("ingest"), async () => Promise.reject(new Error("stalled more than allowable limit")), {
      connection: connectionOf(bull),
      prefix: bull.prefix!,
    });
    const q = new Queue(queueName("ingest"), { connection: connectionOf(bull), prefix: bull.prefix! });
    try {
      await waitFor(async () => (await q.getJobState(bullJobId(row))) === "failed", 10_000);
      await breaker.close();
      expect((await jobRow(db, row.id)).status).toBe("queued");

      const th = await startTestHost(database, [quickHandler("test.failedmsg")], { bull, leaseMs: LEASE_MS, reconcileMs: RECONCILE_MS, staleMs: STALE_MS });
      try {
        const t0 = Date.now();
        const done = await waitFor(async () => {
          const r = await jobRow(db, row.id);
          return r.status === "succeeded" && r;
        }, RECONCILE_BOUND_MS + 10_000);
        expect(Date.now() - t0).toBeLessThan(RECONCILE_BOUND_MS + 5_000);
        expect(done.attempts).toBe(1);
        expect(await effectsOf(db, row.id)).toEqual([{ session_id: e.identity.session_id, note: "parent" }]);
        const metric = await th.metrics.registry.getSingleMetricAsString("codesynapse_job_redispatches_total");
        expect(metric).toMatch(/pool="ingest",reason="stale",result="replaced"\} 1/);
      } finally {
        await th.stop();
      }
    } finally {
      await breaker.close();
      await q.close();
      await dispatcher.close();
    }
  });

  for (const p of paths) {
    it.runIf(available(p))(`[${p} dispatch] claims that fail while the database is unreachable: every job completes once it is back`, async () => {
      const db = database.db;
      const bull = bullFor(p);
      const { proxy, url: proxied } = await proxyFor(pgStatus.url!, 5432);
      // The worker reaches PostgreSQL only through the proxy; the submitter reaches it directly.
      const workerDb: OpenDatabase = await openDatabase({ url: proxied, schema, poolSize: 4 });
      const kind = `test.unreachable.${p}`;
      const th = await startTestHost(workerDb, [quickHandler(kind)], { ...(bull ? { bull } : {}), leaseMs: LEASE_MS, reconcileMs: RECONCILE_MS, staleMs: STALE_MS });
      const submit = dispatcherFor(bull, db);
      try {
        await proxy.cut();
        const cutAt = Date.now();
        const e = await seedExecution(db, clock);
        const rows: JobRow[] = [];
        for (let i = 0; i < 10; i++) rows.push(await enqueueFor(db, clock, e, { kind, pool: "ingest" }));
        await submit.dispatch(rows, clock.now());
        if (bull) {
          // The worker takes all 10 messages while its database is unreachable, and resolves each once its claim gave up.
          const q = new Queue(queueName("ingest"), { connection: connectionOf(bull), prefix: bull.prefix! });
          try {
            await waitFor(async () => (await q.getWaitingCount()) + (await q.getActiveCount()) === 0, 60_000, 100);
            expect(await q.getFailedCount()).toBe(0);
          } finally {
            await q.close();
          }
        } else {
          await new Promise((r) => setTimeout(r, 5_000)); // longer than the claim's own retries
        }
        const during = await statusCounts(db, rows.map((r) => r.id));
        expect(during).toEqual({ queued: 10 });
        await proxy.restore();
        const t0 = Date.now();
        const outageS = (t0 - cutAt) / 1000;
        await waitFor(async () => (await statusCounts(db, rows.map((r) => r.id))).succeeded === 10, RECONCILE_BOUND_MS + 15_000, 50);
        const recovered = (Date.now() - t0) / 1000;
        console.log(`[unreachable ${p}] 10 of 10 claims failed during a ${outageS.toFixed(1)} s outage; all 10 succeeded ${recovered.toFixed(2)} s after the database returned`);
        expect(recovered * 1000).toBeLessThan(RECONCILE_BOUND_MS + 5_000);
        for (const r of rows) expect((await effectsOf(db, r.id)).length).toBe(1);
      } finally {
        await proxy.restore();
        await th.stop();
        await submit.close();
        await workerDb.close();
        await proxy.close();
      }
    });

    it.runIf(available(p))(`[${p} dispatch] a job whose worker is SIGKILLed twice while holding it completes, once, under its session`, async () => {
      const db = database.db;
      const bull = bullFor(p);
      const submit = dispatcherFor(bull, db);
      const e: Execution = await seedExecution(db, clock);
      const row = await enqueueFor(db, clock, e, { kind: "test.crash", pool: "ingest", maxAttempts: 3 });
      await submit.dispatch([row], clock.now());
      try {
        for (let kill = 1; kill <= 2; kill++) {
          const w = spawnWorker(childEnv(bull, "block"));
          await waitFor(async () => w.output().includes(`STARTED ${row.id}`), 30_000, 50);
          expect(await jobRow(db, row.id)).toMatchObject({ status: "running", attempts: kill });
          w.child.kill("SIGKILL");
          expect(await w.exited).toBe("SIGKILL");
        }
        const th = await startTestHost(database, [quickHandler("test.crash")], { ...(bull ? { bull } : {}), leaseMs: LEASE_MS, reconcileMs: RECONCILE_MS, staleMs: STALE_MS });
        try {
          const done = await waitFor(async () => {
            const r = await jobRow(db, row.id);
            return TERMINAL_STATUSES.includes(r.status) && r;
          }, RECONCILE_BOUND_MS + 15_000);
          expect([done.status, done.attempts, done.session_id]).toEqual(["succeeded", 3, e.identity.session_id]);
          expect(await effectsOf(db, row.id)).toEqual([{ session_id: e.identity.session_id, note: "parent" }]);
        } finally {
          await th.stop();
        }
      } finally {
        await submit.close();
      }
    });

    it.runIf(available(p))(`[${p} dispatch] a SIGKILL storm of 50 kills: every job terminal within the bound, none persisted twice`, async () => {
      const db = database.db;
      const bull = bullFor(p);
      const submit = dispatcherFor(bull, db);
      const e = await seedExecution(db, clock);
      const ids: string[] = [];
      const enqueue = async (n: number) => {
        const rows: JobRow[] = [];
        for (let i = 0; i < n; i++) rows.push(await enqueueFor(db, clock, e, { kind: "test.storm", pool: "ingest", maxAttempts: 25 }));
        ids.push(...rows.map((r) => r.id));
        await submit.dispatch(rows, clock.now());
      };
      const workers: ChildWorker[] = [0, 1, 2].map(() => spawnWorker(childEnv(bull, "storm")));
      let kills = 0;
      let lastKillAt = 0;
      try {
        await Promise.all(workers.map((w) => w.ready));
        await enqueue(100);
        const KILLS = 50;
        // The storm ends by itself even when it cannot make its kills (then the assertion on `kills` fails): a timed-out
        // test would go on spawning workers that take the next tests' rows.
        const stormEnds = Date.now() + 200_000;
        while (kills < KILLS && Date.now() < stormEnds) {
          await new Promise((r) => setTimeout(r, 100));
          const open = await sql<{ status: string; lease_owner: string | null }>`
            select status, lease_owner from jobs where status in ('queued', 'running') and id = any(${ids}::text[])`.execute(db);
          if (open.rows.length < 40) await enqueue(20); // keep a backlog, so every worker holds jobs when it dies
          // Kill a worker that holds a running job (its workerId names its pid), then start a new one in its place.
          const holders = new Set(open.rows.filter((r) => r.status === "running").map((r) => /^w-(\d+)-/.exec(r.lease_owner ?? "")?.[1]));
          const k = workers.findIndex((w) => holders.has(String(w.child.pid)));
          if (k < 0) continue;
          const w = workers[k]!;
          w.child.kill("SIGKILL");
          await w.exited;
          kills++;
          lastKillAt = Date.now();
          workers[k] = spawnWorker(childEnv(bull, "storm"));
        }
        // After the storm: a dead worker's lease runs out, its row is reclaimed and dispatched again; drain the rest.
        const drainBudgetMs = RECONCILE_BOUND_MS + 45_000;
        let counts = await statusCounts(db, ids);
        const deadline = lastKillAt + drainBudgetMs;
        while (notTerminal(counts) > 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 200));
          counts = await statusCounts(db, ids);
        }
        const drainedS = (Date.now() - lastKillAt) / 1000;
        const dup = await sql<{ n: string }>`select count(*) as n from (select job_id from job_effects where job_id = any(${ids}::text[]) group by job_id having count(*) > 1) d`.execute(db);
        const succeeded = counts.succeeded ?? 0;
        const effects = await sql<{ n: string }>`select count(distinct job_id) as n from job_effects where job_id = any(${ids}::text[])`.execute(db);
        console.log(
          `[storm ${p}] kills=${kills} jobs=${ids.length} ${JSON.stringify(counts)} not terminal=${notTerminal(counts)} ` +
            `persisted twice=${dup.rows[0]!.n} drained ${drainedS.toFixed(1)} s after the last kill (bound ${(drainBudgetMs / 1000).toFixed(1)} s)`,
        );
        expect(kills).toBeGreaterThanOrEqual(KILLS);
        expect(notTerminal(counts)).toBe(0);
        expect(Number(dup.rows[0]!.n)).toBe(0);
        expect(Number(effects.rows[0]!.n)).toBe(succeeded);
      } finally {
        for (const w of workers) w.child.kill("SIGKILL");
        await Promise.all(workers.map((w) => w.exited));
        await submit.close();
      }
    }, 300_000);
  }
});

/**
 * A pool's slots (workers/sources/slots.ts), on both dispatch paths: at most
 * `concurrency` handlers at once; a handler's slot frees when it returns, so
 * the next job's handler runs while the previous outcome is still being
 * written; and at most 2 × concurrency jobs are held, so outcomes that cannot
 * be written (a stuck database) stop further claims.
 *
 * PostgreSQL server only: PGlite has one connection, so a persist transaction
 * held open blocks every other statement and the overlap cannot happen there
 * (the slot code is the same for both).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { defineHandler } from "../../workers/handler";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";

const clock = systemClock;
const pgStatus = await probeService("postgres");
const redisStatus = await probeService("redis");

const state = { running: 0, maxRunning: 0, started: [] as string[], persisting: [] as string[], gates: new Map<string, () => void>() };

const slow = defineHandler({
  kind: "test.slots",
  pool: "ai",
  restartable: true,
  maxAttempts: 1,
  params: anyParams,
  async run({ job }) {
    state.running++;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    state.started.push(job.id);
    await new Promise((r) => setTimeout(r, 20));
    state.running--;
    return {
      persist: async (tx) => {
        state.persisting.push(job.id);
        await new Promise<void>((open) => state.gates.set(job.id, open));
        await sql`insert into job_effects (job_id, note) values (${job.id}, 'persisted')`.execute(tx);
      },
    };
  },
});

describeWithService(pgStatus, "pool slots [postgres]", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase("postgres", { poolSize: 12 });
    await ensureEffectsTable(database.db);
  });
  afterAll(async () => database?.close());

  const scenario = async (bull?: { url: string; prefix: string }) => {
    Object.assign(state, { running: 0, maxRunning: 0, started: [], persisting: [], gates: new Map() });
    const th = await startTestHost(database, [slow], { concurrency: { ai: 1 }, ...(bull ? { bull } : {}) });
    try {
      const e = await seedExecution(database.db, clock);
      const jobs = [];
      for (let i = 0; i < 3; i++) jobs.push(await enqueueFor(database.db, clock, e, { kind: "test.slots" }));
      await th.dispatcher.dispatch(jobs, clock.now());

      // The first job's outcome cannot be written yet, and still the second job's handler runs.
      await waitFor(async () => state.persisting.length === 2);
      expect(state.started).toEqual(state.persisting);
      // Two held (2 × concurrency 1): the third is not claimed while neither outcome is written.
      await new Promise((r) => setTimeout(r, 600));
      const third = jobs.find((j) => !state.started.includes(j.id))!;
      expect(state.started).toHaveLength(2);
      expect((await jobRow(database.db, third.id)).status).toBe("queued");

      state.gates.get(state.started[0]!)!();
      await waitFor(async () => state.persisting.length === 3);
      for (const j of jobs) {
        await waitFor(async () => {
          state.gates.get(j.id)?.();
          return (await jobRow(database.db, j.id)).status === "succeeded";
        });
        expect(await effectsOf(database.db, j.id)).toHaveLength(1);
      }
      expect(state.maxRunning).toBe(1);
    } finally {
      for (const open of state.gates.values()) open();
      await th.stop();
    }
  };

  it("PostgreSQL dispatch: one handler at a time, the next runs while an outcome is written, at most two held", async () => {
    await scenario();
  });

  describeWithService(redisStatus, "BullMQ", () => {
    it("BullMQ dispatch: one handler at a time, the next runs while an outcome is written, at most two held", async () => {
      const bull = { url: redisStatus.url!, prefix: `cs-test-${randomBytes(4).toString("hex")}` };
      try {
        await scenario(bull);
      } finally {
        const r = new Redis(redisStatus.url!);
        const keys = await r.keys(`${bull.prefix}:*`);
        if (keys.length) await r.del(...keys);
        await r.quit();
      }
    });
  });
});

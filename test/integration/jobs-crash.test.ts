/**
 * JOB-4 with a real crash: a worker process is SIGKILLed mid-job. After its
 * lease expires the sweeper reclaims the row, another worker claims it again,
 * rechecks, and it completes exactly once. Needs a real PostgreSQL (PGlite is
 * one process).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { defineHandler } from "../../workers/handler";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";

const pgStatus = await probeService("postgres");
const clock = systemClock;

describeWithService(pgStatus, "a worker killed mid-job [postgres]", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    await ensureEffectsTable(database.db);
  });
  afterAll(async () => database?.close());

  it("is reclaimed after its lease and completes once, rechecked, under the same primary session", async () => {
    const db = database.db;
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s;
    const e = await seedExecution(db, clock);
    const job = await enqueueFor(db, clock, e, { kind: "test.crash", pool: "ingest" });

    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/job-worker-child.ts")], {
      env: { ...process.env, CHILD_DATABASE_URL: pgStatus.url!, CHILD_SCHEMA: schema, CHILD_LEASE_MS: "1500" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_c, sig) => r(sig)));
    let out = "";
    child.stdout!.on("data", (d) => (out += String(d)));
    await waitFor(async () => out.includes(`STARTED ${job.id}`), 30_000);
    const running = await jobRow(db, job.id);
    expect([running.status, running.attempts]).toEqual(["running", 1]);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    // Our worker: same kind, finishes quickly. It cannot take the job before the dead worker's lease expires.
    let runs = 0;
    const th = await startTestHost(database, [
      defineHandler({
        kind: "test.crash", pool: "ingest", restartable: true, maxAttempts: 3, params: anyParams,
        async run({ job: j, auth }) {
          runs++;
          return { persist: async (tx) => void (await sql`insert into job_effects (job_id, session_id, note) values (${j.id}, ${auth!.identity.session_id}, 'parent')`.execute(tx)) };
        },
      }),
    ]);
    try {
      const before = Date.now();
      const done = await waitFor(async () => {
        const r = await jobRow(db, job.id);
        return r.status === "succeeded" && r;
      }, 20_000);
      expect(Date.now() - before).toBeGreaterThan(300); // waited for the lease, did not steal it
      expect(done.attempts).toBe(2);
      expect(done.session_id).toBe(e.identity.session_id);
      expect(runs).toBe(1);
      expect(await effectsOf(db, job.id)).toEqual([{ session_id: e.identity.session_id, note: "parent" }]);
      const reclaims = await th.metrics.registry.getSingleMetricAsString("codesynapse_job_reclaims_total");
      expect(reclaims).toMatch(/result="queued"\} 1/);
    } finally {
      await th.stop();
    }
  });
});

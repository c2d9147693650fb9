/**
 * A connection killed under a worker's finish: the server
 * terminates the backend of the fenced persist transaction after the
 * handler's writes and before its commit. The handler is not run again: the
 * transaction is retried whole on a new connection (core/retry.ts), the job
 * ends succeeded on its first attempt, and its writes exist once. On the real
 * PostgreSQL server (pg_terminate_backend).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { defineHandler } from "../../workers/handler";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";

const pgStatus = await probeService("postgres");

describeWithService(pgStatus, "a connection killed under a worker's finish [postgres]", () => {
  let database: TestDatabase;
  let admin: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    admin = await openTestDatabase("postgres");
    await ensureEffectsTable(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await admin?.close();
  });

  it("retries the fenced transaction, never the handler: succeeded on attempt 1, its writes once", async () => {
    const db = database.db;
    let runs = 0;
    let kills = 0;
    const handler = defineHandler({
      kind: "test.finishkill",
      pool: "ingest",
      restartable: true,
      maxAttempts: 3,
      params: anyParams,
      async run({ job, auth }) {
        runs++;
        return {
          persist: async (tx) => {
            await sql`insert into job_effects (job_id, session_id, note) values (${job.id}, ${auth!.identity.session_id}, 'once')`.execute(tx);
            if (kills < 2) {
              // The server drops this transaction's connection: its writes and its finish roll back together.
              kills++;
              const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]!.pid;
              await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
            }
          },
        };
      },
    });
    const th = await startTestHost(database, [handler]);
    try {
      const e = await seedExecution(db, systemClock);
      const row = await enqueueFor(db, systemClock, e, { kind: "test.finishkill", pool: "ingest" });
      const done = await waitFor(async () => {
        const r = await jobRow(db, row.id);
        return ["succeeded", "failed"].includes(r.status) && r;
      }, 30_000);
      expect([done.status, done.attempts, runs, kills]).toEqual(["succeeded", 1, 1, 2]);
      expect(await effectsOf(db, row.id)).toEqual([{ session_id: e.identity.session_id, note: "once" }]);
    } finally {
      await th.stop();
    }
  });
});

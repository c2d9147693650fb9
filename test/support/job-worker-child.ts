/**
 * A real worker process for the crash test: opens the PostgreSQL schema named
 * in its environment, runs the "test.crash" pool with a handler that announces
 * itself and then works for a long time, so the parent can SIGKILL it mid-job.
 */
import { sql } from "kysely";
import { systemClock } from "../../core/clock";
import { silentLogger } from "../../core/log";
import { openDatabase } from "../../db/database";
import { PostgresDispatcher } from "../../queues/dispatch/postgres";
import { JobRegistry } from "../../queues/registry";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { startWorkers } from "../../workers/host";
import { anyParams } from "./jobs";

const url = process.env.CHILD_DATABASE_URL!;
const schema = process.env.CHILD_SCHEMA!;
const database = await openDatabase({ url, schema, poolSize: 3 });
const registry = new JobRegistry<JobHandler>().register(
  defineHandler({
    kind: "test.crash",
    pool: "ingest",
    restartable: true,
    maxAttempts: 3,
    params: anyParams,
    async run({ job, signal }) {
      process.stdout.write(`STARTED ${job.id}\n`);
      await new Promise((r) => setTimeout(r, 60_000));
      if (signal.aborted) throw new Error("aborted");
      return { persist: async (tx) => void (await sql`insert into job_effects (job_id, note) values (${job.id}, 'child')`.execute(tx)) };
    },
  }),
);
await startWorkers({
  db: database.db,
  clock: systemClock,
  logger: silentLogger(),
  registry,
  dispatcher: new PostgresDispatcher(database.db),
  pools: ["ingest"],
  leaseMs: Number(process.env.CHILD_LEASE_MS ?? 1500),
  pollMs: 100,
  reconcileMs: 60_000,
  ...(database.listen ? { listen: database.listen } : {}),
});
process.stdout.write("READY\n");

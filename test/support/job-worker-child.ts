/**
 * A real worker process for the crash and fault tests: opens the PostgreSQL
 * schema named in its environment and runs the "ingest" pool with
 * - `test.crash` (CHILD_MODE=block, the default): announces `STARTED <id>` and
 *   then works for a long time, so the parent can SIGKILL it mid-job;
 * - `test.storm` (CHILD_MODE=storm): works 50–250 ms, then persists one
 *   `job_effects` row in the fenced persist step;
 * - the real `ingest.snapshot` (CHILD_MODE=ingest): announces `STARTED <id>`,
 *   waits 500 ms (so the parent can SIGSTOP it mid-run), then ingests under
 *   CHILD_INGEST_ROOT into the repository store MEMORY_STORE names (the
 *   runtime's own wiring, main/memory.ts).
 * Dispatch is BullMQ when CHILD_REDIS_URL is set (CHILD_BULL_PREFIX), otherwise
 * straight from the rows. Lease, reconcile interval and stale bound come from
 * CHILD_LEASE_MS, CHILD_RECONCILE_MS, CHILD_STALE_MS.
 */
import { sql } from "kysely";
import { systemClock } from "../../core/clock";
import { silentLogger } from "../../core/log";
import { openDatabase } from "../../db/database";
import { BullMqDispatcher } from "../../queues/dispatch/bullmq";
import type { Dispatcher } from "../../queues/dispatch/dispatcher";
import { PostgresDispatcher } from "../../queues/dispatch/postgres";
import { JobRegistry } from "../../queues/registry";
import { defineHandler, type JobHandler, type PersistStores } from "../../workers/handler";
import { startWorkers } from "../../workers/host";
import { anyParams } from "./jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const env = process.env;
const database = await openDatabase({ url: env.CHILD_DATABASE_URL!, schema: env.CHILD_SCHEMA!, poolSize: 4 });
const bull = env.CHILD_REDIS_URL ? { url: env.CHILD_REDIS_URL, ...(env.CHILD_BULL_PREFIX ? { prefix: env.CHILD_BULL_PREFIX } : {}) } : undefined;
const dispatcher: Dispatcher = bull ? new BullMqDispatcher(bull) : new PostgresDispatcher(database.db);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const block = defineHandler({
  kind: "test.crash",
  pool: "ingest",
  restartable: true,
  maxAttempts: 3,
  params: anyParams,
  async run({ job, signal }) {
    process.stdout.write(`STARTED ${job.id}\n`);
    await sleep(60_000);
    if (signal.aborted) throw new Error("aborted");
    return { persist: async (tx) => void (await sql`insert into job_effects (job_id, note) values (${job.id}, 'child')`.execute(tx)) };
  },
});
const storm = defineHandler({
  kind: "test.storm",
  pool: "ingest",
  restartable: true,
  maxAttempts: 25,
  params: anyParams,
  async run({ job, auth }) {
    await sleep(50 + Math.floor(Math.random() * 200));
    return {
      persist: async (tx) => void (await sql`insert into job_effects (job_id, session_id, note) values (${job.id}, ${auth!.identity.session_id}, ${String(process.pid)})`.execute(tx)),
    };
  },
});
const registry = new JobRegistry<JobHandler>();
let stores: PersistStores | undefined;
if (env.CHILD_MODE === "ingest") {
  // Loaded only here: the memory stores' drivers and the parsers would slow every storm worker's start.
  const [{ buildMemoryServices }, { loadConfig }, { ingestHandler }] = await Promise.all([
    import("../../main/memory"),
    import("../../core/config"),
    import("../../workers/pools/ingest"),
  ]);
  const config = loadConfig({ ...env, INGEST_ALLOWED_ROOTS: env.CHILD_INGEST_ROOT! });
  const memory = buildMemoryServices(config, database.db, systemClock, silentLogger());
  const queue = { db: database.db, identity: identityStore, clock: systemClock, registry, dispatcher };
  const ingest = ingestHandler({ config, queue: () => queue, stores: relationalStores(database.db), repository: memory.repository.store });
  registry.register({
    ...ingest,
    async run(ctx) {
      process.stdout.write(`STARTED ${ctx.job.id}\n`);
      await sleep(500);
      return ingest.run(ctx);
    },
  });
  stores = { repository: memory.repository.store };
} else registry.register(env.CHILD_MODE === "storm" ? storm : block);
await startWorkers({
  db: database.db,
  identity: identityStore,
  clock: systemClock,
  logger: silentLogger(),
  registry,
  dispatcher,
  pools: ["ingest"],
  leaseMs: Number(env.CHILD_LEASE_MS ?? 1500),
  reconcileMs: Number(env.CHILD_RECONCILE_MS ?? 60_000),
  staleMs: Number(env.CHILD_STALE_MS ?? 30_000),
  pollMs: 100,
  ...(bull ? { bull } : {}),
  ...(stores ? { stores } : {}),
  ...(database.listen ? { listen: database.listen } : {}),
});
process.stdout.write("READY\n");

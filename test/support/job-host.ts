/** Starts real worker pools over a test database, with short leases and fast passes. */
import { sql } from "kysely";
import { systemClock, type Clock } from "../../core/clock";
import { silentLogger } from "../../core/log";
import type { OpenDatabase } from "../../db/database";
import type { Db } from "../../db/schema";
import { BullMqDispatcher, type BullOptions } from "../../queues/dispatch/bullmq";
import type { Dispatcher } from "../../queues/dispatch/dispatcher";
import { PostgresDispatcher } from "../../queues/dispatch/postgres";
import { JobMetrics } from "../../queues/metrics";
import { JobRegistry } from "../../queues/registry";
import type { JobHandler } from "../../workers/handler";
import { startWorkers, type WorkerHost, type WorkerHostOptions } from "../../workers/host";
import { identityStore } from "../../db/sql/identity/store";

export interface TestHost {
  host: WorkerHost;
  dispatcher: Dispatcher;
  metrics: JobMetrics;
  registry: JobRegistry<JobHandler>;
  stop(): Promise<void>;
}

export async function startTestHost(
  database: OpenDatabase,
  handlers: JobHandler[],
  o: Partial<WorkerHostOptions> & { bull?: BullOptions; clock?: Clock } = {},
): Promise<TestHost> {
  const registry = new JobRegistry<JobHandler>();
  for (const h of handlers) registry.register(h);
  const dispatcher: Dispatcher = o.bull ? new BullMqDispatcher(o.bull) : new PostgresDispatcher(database.db);
  const metrics = new JobMetrics({ db: database.db });
  const host = await startWorkers({
    db: database.db,
    identity: identityStore,
    clock: o.clock ?? systemClock,
    logger: silentLogger(),
    registry,
    dispatcher,
    metrics,
    pools: o.pools ?? [...new Set(handlers.map((h) => h.pool))],
    leaseMs: 1500,
    pollMs: 200,
    reconcileMs: 200,
    staleMs: 1000,
    scheduleMs: 200,
    cancelPollMs: 100,
    backoffBaseMs: 50,
    ...(database.listen ? { listen: database.listen } : {}),
    ...o,
  });
  return {
    host,
    dispatcher,
    metrics,
    registry,
    async stop() {
      await host.stop();
      await dispatcher.close();
    },
  };
}

/** A table the test handlers write into from `persist`, so "nothing was written" is observable. */
export async function ensureEffectsTable(db: Db): Promise<void> {
  await sql`create table if not exists job_effects (job_id text not null, session_id text, note text)`.execute(db);
}

export async function effectsOf(db: Db, jobId: string): Promise<Array<{ session_id: string | null; note: string | null }>> {
  const r = await sql<{ session_id: string | null; note: string | null }>`select session_id, note from job_effects where job_id = ${jobId}`.execute(db);
  return r.rows;
}

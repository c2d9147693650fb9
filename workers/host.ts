/**
 * The worker host: runs the chosen pools (WRK-1) in this process. Per pool a
 * source (BullMQ when the dispatcher is BullMQ, otherwise the PostgreSQL
 * claim loop), one shared runner, and the process-wide helpers: the reconciler
 * (sweeper + re-dispatch), the schedule ticker, and the cancel watch.
 */
import type { Clock } from "../core/clock";
import { JOB_LEASE_MS, JOB_RECONCILE_MS, JOB_STALE_MS } from "../core/limits";
import type { Logger } from "../core/log";
import type { OpenDatabase } from "../db/database";
import type { Db } from "../db/schema";
import { onCancel } from "../queues/cancel-signals";
import type { BullOptions } from "../queues/dispatch/bullmq";
import type { Dispatcher } from "../queues/dispatch/dispatcher";
import { isPool, type Pool } from "../queues/jobs";
import type { JobMetrics } from "../queues/metrics";
import { reconcileOnce } from "../queues/reconciler";
import type { JobRegistry } from "../queues/registry";
import { fireDueSchedules } from "../queues/scheduler";
import type { FairShare } from "../queues/sql/fairShare";
import { JOBS_CHANNEL } from "../queues/sql/enqueueJob";
import { findCancelRequested } from "../queues/sql/findCancelRequested";
import { upsertSchedule } from "../queues/sql/upsertSchedule";
import type { JobHandler, PersistStores } from "./handler";
import { JobRunner, type RunnerOptions } from "./runner";
import type { BullSource } from "./sources/bullmq";
import { PostgresSource } from "./sources/postgres";

export const DEFAULT_CONCURRENCY: Record<Pool, number> = { ingest: 2, ai: 4, embedding: 2, fix: 1, cleanup: 1 };

export interface WorkerHostOptions {
  db: Db;
  identity: RunnerOptions["identity"];
  clock: Clock;
  logger: Logger;
  registry: JobRegistry<JobHandler>;
  dispatcher: Dispatcher;
  metrics?: JobMetrics;
  pools: readonly string[];
  concurrency?: Partial<Record<Pool, number>>;
  /** Required when the dispatcher is BullMQ. */
  bull?: BullOptions;
  listen?: OpenDatabase["listen"];
  leaseMs?: number;
  pollMs?: number;
  reconcileMs?: number;
  staleMs?: number;
  scheduleMs?: number;
  cancelPollMs?: number;
  backoffBaseMs?: number;
  workerId?: string;
  /** The writable stores handlers' `persist` steps get, fenced (workers/fenced-stores.ts). */
  stores?: PersistStores;
  /** Fair share across organisations, then sessions, on both dispatch paths (docs/jobs.md); absent: FIFO. */
  fair?: FairDispatch;
}

/** Fair dispatch of every pool: operator weights, and a per-pool cap on one organisation's running rows. */
export interface FairDispatch {
  weights?: ReadonlyMap<string, number>;
  runningPerOrg?: Partial<Record<Pool, number>>;
}

function fairOf(f: FairDispatch | undefined, pool: Pool): FairShare | undefined {
  if (!f) return undefined;
  const cap = f.runningPerOrg?.[pool];
  return { ...(f.weights && f.weights.size > 0 ? { weights: f.weights } : {}), ...(cap !== undefined ? { runningPerOrg: cap } : {}) };
}

export interface WorkerHost {
  runner: JobRunner;
  pools: Pool[];
  reconcileNow(): Promise<void>;
  tickSchedules(): Promise<void>;
  /** Takes no new job; running ones get `drainMs` (default 0) to finish, then hand their rows back (Runner.shutdown). */
  stop(opts?: { drainMs?: number }): Promise<void>;
}

export function parsePools(list: readonly string[]): Pool[] {
  const out: Pool[] = [];
  for (const p of list) {
    if (!isPool(p)) throw new Error(`unknown worker pool "${p}" (pools: ingest, ai, embedding, fix, cleanup)`);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

function every(ms: number, fn: () => Promise<void>): () => void {
  let running = false;
  const t = setInterval(() => {
    if (running) return;
    running = true;
    fn().finally(() => {
      running = false;
    });
  }, ms);
  t.unref();
  return () => clearInterval(t);
}

export async function startWorkers(o: WorkerHostOptions): Promise<WorkerHost> {
  const pools = parsePools(o.pools);
  const leaseMs = o.leaseMs ?? JOB_LEASE_MS;
  const { db, clock, logger } = o;
  const runner = new JobRunner({
    db, identity: o.identity, clock, logger, registry: o.registry, dispatcher: o.dispatcher, leaseMs,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    ...(o.workerId ? { workerId: o.workerId } : {}),
    ...(o.backoffBaseMs !== undefined ? { backoffBaseMs: o.backoffBaseMs } : {}),
    ...(o.stores ? { stores: o.stores } : {}),
  });

  // Persisted system schedules (the cleanup sweep every minute), created once, kept across restarts.
  for (const k of o.registry.list()) {
    if (k.system && k.everyMs && pools.includes(k.pool)) {
      await upsertSchedule(db, clock.now(), { id: `system:${k.kind}`, kind: k.kind, params: {}, intervalMs: k.everyMs, identity: null, actor: null, firstRunAt: clock.now() });
    }
  }

  const pgSources = new Map<string, PostgresSource>();
  const bullSources: BullSource[] = [];
  // BullMQ (and ioredis) load only when dispatch uses them: the embedded default never imports them.
  const bull = o.dispatcher.kind === "bullmq" ? await import("./sources/bullmq") : undefined;
  for (const pool of pools) {
    const concurrency = o.concurrency?.[pool] ?? DEFAULT_CONCURRENCY[pool];
    const fair = fairOf(o.fair, pool);
    const common = { db, clock, logger, pool, concurrency, leaseMs, runner, ...(fair ? { fair } : {}) };
    if (o.dispatcher.kind === "bullmq") {
      if (!o.bull || !bull) throw new Error("BullMQ dispatch needs its Redis options");
      bullSources.push(new bull.BullSource({ ...common, bull: o.bull }));
    } else {
      pgSources.set(pool, new PostgresSource({ ...common, pollMs: o.pollMs ?? 1000 }).start());
    }
  }
  // After the LISTEN connection comes back, every source polls once for what it missed.
  const wakeAll = () => pgSources.forEach((s) => s.wake());
  const unlisten = pgSources.size > 0 && o.listen ? await o.listen(JOBS_CHANNEL, (pool) => pgSources.get(pool)?.wake(), wakeAll) : undefined;

  const reconcileNow = async () => {
    try {
      await reconcileOnce(db, o.dispatcher, clock.now(), { staleMs: o.staleMs ?? JOB_STALE_MS, ...(o.metrics ? { metrics: o.metrics } : {}) });
    } catch (err) {
      logger.warn({ code: "reconcile_failed", err: (err as Error).message }, "reconcile failed");
    }
  };
  const tickSchedules = async () => {
    try {
      const fired = await fireDueSchedules(db, o.registry, clock.now());
      const jobs = fired.flatMap((f) => (f.job ? [f.job] : []));
      for (const f of fired) if (f.refused) logger.warn({ code: f.refused }, "schedule failed closed");
      if (jobs.length > 0) await o.dispatcher.dispatch(jobs, clock.now());
    } catch (err) {
      logger.warn({ code: "schedule_tick_failed", err: (err as Error).message }, "schedule tick failed");
    }
  };
  const cancelWatch = async () => {
    const ids = runner.activeIds();
    if (ids.length === 0) return;
    try {
      for (const id of await findCancelRequested(db, ids)) runner.abort(id, "canceled");
    } catch (err) {
      logger.warn({ code: "cancel_watch_failed", err: (err as Error).message }, "cancel watch failed");
    }
  };
  const stops = [every(o.reconcileMs ?? JOB_RECONCILE_MS, reconcileNow), every(o.scheduleMs ?? 5_000, tickSchedules)];
  // Cancels still reach the jobs that run on through a shutdown's drain.
  const cancelStops = [every(o.cancelPollMs ?? 1_000, cancelWatch), onCancel((id) => runner.abort(id, "canceled"))];
  void tickSchedules();
  logger.info({ pools, dispatch: o.dispatcher.kind }, "worker pools started");
  let stopping: Promise<void> | undefined;

  return {
    runner,
    pools,
    reconcileNow,
    tickSchedules,
    stop(opts = {}) {
      // Once: a second call (a test's cleanup, a second signal) waits for the first.
      stopping ??= (async () => {
        for (const s of stops) s();
        const closing = [...bullSources.map((s) => s.stop()), ...[...pgSources.values()].map((s) => s.stop())];
        await runner.shutdown(opts.drainMs ?? 0);
        for (const s of cancelStops) s();
        await Promise.all(closing);
        await unlisten?.();
      })();
      return stopping;
    },
  };
}

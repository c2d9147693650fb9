/**
 * The composition root: opens the stores named by the configuration, runs
 * migrations, builds the app context, listens, and shuts down cleanly.
 */
import type { Server } from "node:http";
import { systemClock, type Clock } from "../core/clock";
import type { Config } from "../core/config";
import { createLogger, type Logger } from "../core/log";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import { createApp } from "../api/app";
import { createRateLimits } from "../core/rate-limit";
import { redisLimiterStore } from "../db/redis-rate-limits";
import { buildMemoryServices } from "./memory";
import { memoryCleaner } from "../core/memory/services";
import type { AppContext } from "../api/context";
import { SessionCleaners } from "../core/retention/cleaners";
import { uploadsCleaner } from "../core/ingest/uploads";
import { idempotencyCleaner } from "../queues/idempotency";
import { jobQuotesCleaner } from "../queues/memory-erasure";
import { JobMetrics } from "../queues/metrics";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import type { JobHandler } from "../workers/handler";
import { startWorkers, type WorkerHost } from "../workers/host";
import { WebhookSender } from "../workers/webhook-sender";
import { cleanupHandler } from "../workers/pools/cleanup";
import { jobKindHandlers } from "../workers/pools/kinds";
import { startMetricsServer, type MetricsServer } from "../api/metrics-server";

export interface Platform {
  ctx: AppContext;
  database: OpenDatabase;
  server?: Server;
  url?: string;
  /** A worker process's own /metrics, /healthz, /readyz server (METRICS_PORT); the API serves them itself. */
  metrics?: MetricsServer;
  stop(): Promise<void>;
}

export async function openStores(config: Config, logger: Logger): Promise<OpenDatabase> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CODESYNAPSE_DATA_DIR });
  const applied = await migrateToLatest(database.db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");
  return database;
}

export async function startPlatform(
  config: Config,
  opts: { serve: boolean; pools: string[]; logger?: Logger; clock?: Clock },
): Promise<Platform> {
  const logger = opts.logger ?? createLogger({ level: config.LOG_LEVEL });
  const clock = opts.clock ?? systemClock;
  const database = await openStores(config, logger);
  const ctx: AppContext = { db: database.db, clock, config, logger, closers: [] };
  if (opts.serve) {
    // Rate limits shared by every API node through Redis when there is one (core/rate-limit.ts).
    const limits = createRateLimits(config, config.REDIS_URL ? redisLimiterStore(config.REDIS_URL, logger) : undefined);
    ctx.limits = limits;
    ctx.closers!.push(() => limits.close());
  }
  ctx.memory = buildMemoryServices(config, database.db, clock, logger);
  // Durable jobs: one registry of handlers (later pools register theirs here), one dispatcher, metrics.
  const cleaners = new SessionCleaners();
  if (ctx.memory) cleaners.register(memoryCleaner(ctx.memory, clock));
  cleaners.register(uploadsCleaner(database.db));
  cleaners.register(idempotencyCleaner(database.db));
  cleaners.register(jobQuotesCleaner(database.db, clock));
  const registry = new JobRegistry<JobHandler>().register(cleanupHandler(cleaners));
  const { queue, bull } = createJobQueue({ db: database.db, clock, logger, registry, redisUrl: config.REDIS_URL, redisCluster: config.REDIS_CLUSTER_NODES });
  ctx.jobs = queue;
  if (ctx.memory) for (const h of jobKindHandlers({ config, memory: ctx.memory, queue: () => queue })) registry.register(h);
  ctx.cleaners = cleaners;
  ctx.jobMetrics = new JobMetrics({ db: database.db, staleMs: config.JOB_STALE_MS, processMetrics: true });
  let workers: WorkerHost | undefined;
  let webhooks: WebhookSender | undefined;
  const platform: Platform = {
    ctx,
    database,
    async stop() {
      // Graceful shutdown (docs/architecture.md "Shutdown"), bounded by SHUTDOWN_DRAIN_MS:
      // 1. stop accepting: the listener closes, idle keep-alive connections close, MCP transports
      //    and their SSE streams close (they would hold the server open for ever);
      const deadline = Date.now() + config.SHUTDOWN_DRAIN_MS;
      const server = platform.server;
      const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      server?.closeIdleConnections();
      await Promise.all((ctx.closers ?? []).map((close) => close().catch(() => undefined)));
      // 2. running handlers get the drain to finish; what still runs then is handed back (restartable)
      //    or abandoned (fix), fenced by its lease;
      await workers?.stop({ drainMs: config.SHUTDOWN_DRAIN_MS });
      await webhooks?.stop();
      // 3. requests in flight get what is left of the drain, then their connections are closed.
      //    A keep-alive connection whose last response ends now is closed as soon as it idles.
      if (server) {
        let timer: NodeJS.Timeout | undefined;
        const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
        server.closeIdleConnections();
        await Promise.race([serverClosed, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
        clearTimeout(timer);
        clearInterval(idleSweep);
        server.closeAllConnections();
        await serverClosed;
      }
      // OFF-1: pending offload batches are dropped, never replayed.
      ctx.memory?.close();
      await platform.metrics?.close();
      await queue.dispatcher.close();
      await database.close();
    },
  };
  if (opts.pools.length > 0) {
    workers = await startWorkers({
      db: database.db,
      clock,
      logger,
      registry,
      dispatcher: queue.dispatcher,
      metrics: ctx.jobMetrics,
      pools: opts.pools,
      leaseMs: config.JOB_LEASE_MS,
      reconcileMs: config.JOB_RECONCILE_MS,
      staleMs: config.JOB_STALE_MS,
      ...(ctx.memory ? { stores: { repository: ctx.memory.repository.store } } : {}),
      ...(bull ? { bull } : {}),
      ...(database.listen ? { listen: database.listen } : {}),
    });
  }
  if (opts.pools.length > 0) {
    // Completion webhooks: every worker process sends its share of the due deliveries (docs/jobs.md).
    webhooks = new WebhookSender({ db: database.db, clock, logger });
    webhooks.start();
  }
  if (!opts.serve && opts.pools.length > 0) {
    platform.metrics = await startMetricsServer(ctx, { host: config.HOST, port: config.METRICS_PORT });
    logger.info({ url: platform.metrics.url, serves: "metrics" }, "listening");
  }
  if (opts.serve) {
    const app = createApp(ctx);
    const server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.PORT, config.HOST, () => resolve(s));
      s.once("error", reject);
    });
    platform.server = server;
    const addr = server.address();
    const port = typeof addr === "object" && addr ? addr.port : config.PORT;
    platform.url = `http://${config.HOST}:${port}`;
    logger.info({ url: platform.url, database: database.kind, location: database.location }, "listening");
  }
  return platform;
}

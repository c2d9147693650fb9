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
import { buildMemoryServices } from "./memory";
import { createProviderGates, hasProviderLimits } from "../core/provider-limits";
import { memoryCleaner } from "../core/memory/services";
import type { AppContext } from "../api/context";
import { SessionCleaners } from "../core/retention/cleaners";
import { uploadsCleaner } from "../core/ingest/uploads";
import { idempotencyCleaner } from "../queues/idempotency";
import { sweepGenerations } from "../db/graph/postgres/generations";
import { identityStore } from "../db/sql/identity/store";
import { jobQuotesCleaner } from "../queues/memory-erasure";
import { JobMetrics } from "../queues/metrics";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Embedder } from "../core/memory/embedder";
import type { OffloadQueue } from "../core/memory/offload";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import type { JobHandler } from "../workers/handler";
import { startWorkers, type WorkerHost } from "../workers/host";
import { WebhookSender } from "../workers/webhook-sender";
import { relationalStores } from "../db/stores";
import { cleanupHandler } from "../workers/pools/cleanup";
import { jobKindHandlers } from "../workers/pools/kinds";
import { startMetricsServer, type MetricsServer } from "../api/metrics-server";
import { bindPort, type BoundPort } from "../api/listen";
import { announceLocalServer } from "./local-server";

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
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.CODESYNAPSE_DATA_DIR,
    onUpgrade: (u) => logger.warn(u, "embedded database upgraded to this PGlite's PostgreSQL; the old cluster is kept in `backup` (delete it once satisfied)"),
  });
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
  // The process's port first (api/listen.ts) — the API's PORT, or a worker's METRICS_PORT: one it
  // cannot bind stops it here, before a store opens (a second server on the same embedded data
  // directory never touches it), a pool starts or server.json is written. Requests wait for the
  // app until start-up is done.
  const port = opts.serve
    ? await bindPort({ host: config.HOST, port: config.PORT, variable: "PORT" })
    : opts.pools.length > 0
      ? await bindPort({ host: config.HOST, port: config.METRICS_PORT, variable: "METRICS_PORT" })
      : undefined;
  try {
    return await startOn(config, { ...opts, logger, clock }, port);
  } catch (err) {
    await port?.close();
    throw err;
  }
}

/** The rest of start-up, on the port already bound (the API's, or a worker's metrics server's). */
async function startOn(config: Config, opts: { serve: boolean; pools: string[]; logger: Logger; clock: Clock }, port: BoundPort | undefined): Promise<Platform> {
  const { logger, clock } = opts;
  const database = await openStores(config, logger);
  const stores = relationalStores(database.db);
  const ctx: AppContext = { db: database.db, stores, identity: identityStore(database.db), clock, config, logger, closers: [] };
  if (opts.serve) {
    // Rate limits shared by every API node through Redis when there is one (core/rate-limit.ts).
    // ioredis loads only when there is a Redis (the embedded default has none).
    const limits = createRateLimits(config, config.REDIS_URL ? (await import("../db/redis-rate-limits")).redisLimiterStore(config.REDIS_URL, logger) : undefined);
    ctx.limits = limits;
    ctx.closers!.push(() => limits.close());
  }
  // Provider limits (docs/jobs.md): shared by every process through Redis when there is one.
  const gates = createProviderGates(config, ...(config.REDIS_URL && hasProviderLimits(config) ? [(await import("../db/redis-provider-limits")).redisProviderLimitStores(config.REDIS_URL, logger)] : []));
  ctx.closers!.push(() => gates.close());
  ctx.memory = buildMemoryServices(config, database.db, clock, logger, gates);
  // Durable jobs: one registry of handlers (later pools register theirs here), one dispatcher, metrics.
  const cleaners = new SessionCleaners();
  if (ctx.memory) cleaners.register(memoryCleaner(ctx.memory, clock));
  cleaners.register(uploadsCleaner(stores.uploads));
  cleaners.register(idempotencyCleaner(database.db));
  cleaners.register(jobQuotesCleaner(database.db, stores.receipts, clock));
  // A staged ingest that crashed or lost its lease and was never retried: its rows go with the sweep.
  const tidy = ctx.memory?.repository.store.staging ? (limit: number) => sweepGenerations(database.db, limit) : undefined;
  const registry = new JobRegistry<JobHandler>().register(cleanupHandler(cleaners, stores, tidy ? { tidy } : {}));
  const { queue, bull } = createJobQueue({ db: database.db, identity: identityStore, clock, logger, registry, redisUrl: config.REDIS_URL, redisCluster: config.REDIS_CLUSTER_NODES });
  ctx.jobs = queue;
  if (ctx.memory) for (const h of jobKindHandlers({ config, memory: ctx.memory, stores, queue: () => queue, gates })) registry.register(h);
  ctx.cleaners = cleaners;
  ctx.jobMetrics = new JobMetrics({ db: database.db, staleMs: config.JOB_STALE_MS, processMetrics: true });
  // Caps on queued jobs per organisation / session (docs/jobs.md "Caps"), refusals counted without tenant or session labels.
  const jobMetrics = ctx.jobMetrics;
  queue.caps = { ...(config.JOB_ORG_MAX_QUEUED ? { perOrg: config.JOB_ORG_MAX_QUEUED } : {}), ...(config.JOB_SESSION_MAX_QUEUED ? { perSession: config.JOB_SESSION_MAX_QUEUED } : {}) };
  queue.onLimit = (pool, limit) => jobMetrics.limited(pool, limit);
  if (ctx.memory) embedderMetric(ctx.memory.embedder, ctx.jobMetrics.registry);
  if (ctx.memory) offloadMetrics(ctx.memory.offload, ctx.jobMetrics.registry);
  let workers: WorkerHost | undefined;
  let webhooks: WebhookSender | undefined;
  let unannounce: (() => void) | undefined;
  const platform: Platform = {
    ctx,
    database,
    async stop() {
      // Graceful shutdown (docs/architecture.md "Shutdown"), bounded by SHUTDOWN_DRAIN_MS:
      // 1. stop accepting: the listener closes, idle keep-alive connections close, MCP transports
      //    and their SSE streams close (they would hold the server open for ever);
      const deadline = Date.now() + config.SHUTDOWN_DRAIN_MS;
      unannounce?.();
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
      identity: identityStore,
      clock,
      logger,
      registry,
      dispatcher: queue.dispatcher,
      metrics: ctx.jobMetrics,
      pools: opts.pools,
      leaseMs: config.JOB_LEASE_MS,
      reconcileMs: config.JOB_RECONCILE_MS,
      staleMs: config.JOB_STALE_MS,
      ...(config.JOB_FAIR_SHARE
        ? { fair: { ...(config.JOB_ORG_WEIGHTS ? { weights: config.JOB_ORG_WEIGHTS } : {}), ...(config.JOB_ORG_MAX_RUNNING ? { runningPerOrg: config.JOB_ORG_MAX_RUNNING } : {}) } }
        : {}),
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
  if (port && !opts.serve) {
    platform.metrics = startMetricsServer(ctx, port);
    logger.info({ url: platform.metrics.url, serves: "metrics" }, "listening");
  }
  if (port && opts.serve) {
    port.serve(createApp(ctx));
    platform.server = port.server;
    platform.url = port.url;
    // On the embedded database, the CLI's admin commands come through this server (main/local-server.ts).
    if (!config.DATABASE_URL) {
      const announced = announceLocalServer(config.CODESYNAPSE_DATA_DIR, platform.url);
      ctx.localAdminToken = announced.token;
      unannounce = announced.remove;
    }
    logger.info({ url: platform.url, database: database.kind, location: database.location }, "listening");
  }
  return platform;
}

/**
 * `codesynapse_offload_extraction_total{count}`: what offload extraction did in this process
 * (turns, statements found, stored, repeats, superseded, dropped for the namespace budget,
 * shortened), and `codesynapse_offload_failures_total{code}`. No tenant or session labels.
 */
function offloadMetrics(offload: OffloadQueue, registry: Registry): void {
  new Counter({
    name: "codesynapse_offload_extraction_total",
    help: "Offload extraction in this process: turns read, statements found, stored, repeats, superseded, dropped for the namespace budget, shortened.",
    labelNames: ["count"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [k, v] of Object.entries(offload.totals)) this.inc({ count: k }, v);
    },
  });
  new Counter({
    name: "codesynapse_offload_failures_total",
    help: "Offload calls whose extraction stored nothing, by error code (e.g. a binding revoked meanwhile).",
    labelNames: ["code"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [code, v] of offload.failures) this.inc({ code }, v);
    },
  });
}

/**
 * `codesynapse_embedder_fallback{reason}`: 1 while feature hashing serves because the configured
 * embedding model cannot (model_missing, checksum_mismatch, load_failed), 0 while the model serves.
 */
function embedderMetric(embedder: Embedder, registry: Registry): void {
  const status = embedder.status?.bind(embedder);
  if (!status) return;
  new Gauge({
    name: "codesynapse_embedder_fallback",
    help: "1 while feature hashing serves because the configured embedding model cannot; the reason is a label.",
    labelNames: ["reason"],
    registers: [registry],
    async collect() {
      const s = await status();
      this.reset();
      this.set({ reason: s.fallback ?? "none" }, s.fallback ? 1 : 0);
    },
  });
}

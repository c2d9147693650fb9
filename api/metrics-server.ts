/**
 * A worker process's own HTTP server (`codesynapse worker`, no API): `/metrics`
 * (the same route as the API's, METRICS_TOKEN included), `/healthz` and
 * `/readyz` (the same checks of this process's dependencies) on HOST and
 * METRICS_PORT (default 9464), so each pool's counters can be scraped and its
 * container probed. Requests are logged and measured like the API's. The port
 * is bound first (api/listen.ts), before the pools start.
 */
import express from "express";
import { AppError } from "../core/errors";
import type { AppContext } from "./context";
import type { BoundPort } from "./listen";
import { errorMiddleware } from "./http";
import { httpMetrics } from "./http-metrics";
import { requestLog } from "./request-log";
import { healthRoutes } from "./routes/health";
import { metricsRoutes } from "./routes/metrics";
import { JobMetrics } from "../queues/metrics";

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the routes on a port already bound (api/listen.ts: METRICS_PORT is bound before the pools start). */
export function startMetricsServer(ctx: AppContext, port: BoundPort): MetricsServer {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  ctx.jobMetrics ??= new JobMetrics({ db: ctx.db });
  app.use(requestLog(ctx.logger));
  app.use(httpMetrics(ctx.jobMetrics.registry));
  app.use(healthRoutes(ctx));
  app.use(metricsRoutes(ctx));
  app.use((_req, _res, next) => next(new AppError("not_found")));
  app.use(errorMiddleware(ctx.logger));
  port.serve(app);
  return { url: port.url, close: () => port.close() };
}

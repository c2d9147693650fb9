/**
 * A worker process's own HTTP server (`codesynapse worker`, no API): `/metrics`
 * (the same route as the API's, METRICS_TOKEN included), `/healthz` and
 * `/readyz` (the same checks of this process's dependencies) on HOST and
 * METRICS_PORT (default 9464), so each pool's counters can be scraped and its
 * container probed. Requests are logged and measured like the API's.
 */
import type { Server } from "node:http";
import express from "express";
import { AppError } from "../core/errors";
import type { AppContext } from "./context";
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

export async function startMetricsServer(ctx: AppContext, opts: { host: string; port: number }): Promise<MetricsServer> {
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
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port, opts.host, () => resolve(s));
    s.once("error", reject);
  });
  const addr = server.address();
  const url = `http://${opts.host}:${typeof addr === "object" && addr ? addr.port : opts.port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * `GET /metrics` (JOB-9): Prometheus text. Labels are pools, kinds, outcomes,
 * stages and codes only — never a session, tenant, user or job id (RET-2).
 */
import { Router } from "express";
import { JobMetrics } from "../../queues/metrics";
import type { AppContext } from "../context";
import { route } from "../http";

export function metricsRoutes(ctx: AppContext): Router {
  const r = Router();
  let own: JobMetrics | undefined;
  r.get(
    "/metrics",
    route(async (_req, res) => {
      const metrics = ctx.jobMetrics ?? (own ??= new JobMetrics({ db: ctx.db }));
      res.setHeader("content-type", metrics.registry.contentType);
      res.send(await metrics.registry.metrics());
    }),
  );
  return r;
}

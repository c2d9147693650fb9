/**
 * `GET /metrics` (JOB-9): Prometheus text. Labels are pools, kinds, outcomes,
 * stages, codes, methods, route templates and statuses only — never a session,
 * tenant, user or job id (RET-2). Served by the API and by every worker
 * process's own metrics server (api/metrics-server.ts).
 * With METRICS_TOKEN set, a scraper must send `Authorization: Bearer <token>`
 * (compared in constant time over digests); anything else is 401.
 */
import { Router } from "express";
import { sha256Hex, safeEqualHex } from "../../core/crypto";
import { AppError } from "../../core/errors";
import { JobMetrics } from "../../queues/metrics";
import type { AppContext } from "../context";
import { route } from "../http";

export function metricsRoutes(ctx: AppContext): Router {
  const r = Router();
  const expected = ctx.config.METRICS_TOKEN === undefined ? undefined : sha256Hex(ctx.config.METRICS_TOKEN);
  r.get(
    "/metrics",
    route(async (req, res) => {
      if (expected !== undefined) {
        const m = /^Bearer (.+)$/.exec(req.get("authorization") ?? "");
        if (!m || !safeEqualHex(sha256Hex(m[1]!), expected)) throw new AppError("unauthenticated", { message: "This endpoint needs the metrics bearer token." });
      }
      const metrics = (ctx.jobMetrics ??= new JobMetrics({ db: ctx.db }));
      res.setHeader("content-type", metrics.registry.contentType);
      res.send(await metrics.registry.metrics());
    }),
  );
  return r;
}

/**
 * The console's charts over time (platform admins):
 *
 *   GET /api/v1/admin/charts?window=1h|24h[&org=ORG][&system=1]
 *       per pool: jobs ended and failed per minute, wait and run p50/p95, queue depth, over the last
 *       hour (1-minute buckets) or day (15-minute buckets), from the job rows
 *       (queues/sql/jobCharts.ts); system sweeps count only with system=1.
 *   GET /admin/assets/uplot.js, /admin/assets/uplot.css
 *       uPlot (MIT, the exact version package.json pins), served from node_modules by the app: no
 *       CDN, so the pages keep their Content-Security-Policy (scripts and styles from 'self').
 *   GET /admin/assets/charts.js
 *       the console's script that draws them (api/routes/admin-chart-assets.ts).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Router, type Response } from "express";
import { z } from "zod";
import { idString } from "../../core/boundary";
import { CHART_WINDOWS, jobCharts, type ChartWindow } from "../../queues/sql/jobCharts";
import { requireActor, requirePlatformAdmin } from "../auth";
import type { AppContext } from "../context";
import { parseWith, route } from "../http";
import { CHARTS_JS } from "./admin-chart-assets";

const chartQuery = z.strictObject({
  window: z.enum(Object.keys(CHART_WINDOWS) as [ChartWindow, ...ChartWindow[]]).default("1h"),
  org: idString().optional(),
  system: z.enum(["0", "1"]).optional(),
});

/** The query of a charts request or of the jobs page: empty strings mean "not given". */
export function chartFilterOf(raw: unknown) {
  const obj = Object.fromEntries(Object.entries((raw ?? {}) as Record<string, unknown>).filter(([, v]) => v !== "" && v !== undefined));
  const q = parseWith(chartQuery, obj, "(query)");
  return { window: q.window, org: q.org, system: q.system === "1" };
}

const resolveFile = createRequire(import.meta.url).resolve;
const files = new Map<string, Promise<string>>();
/** A file of the uplot package, read once. */
function uplotFile(name: string): Promise<string> {
  let f = files.get(name);
  if (!f) {
    f = readFile(resolveFile(`uplot/dist/${name}`), "utf8");
    f.catch(() => files.delete(name));
    files.set(name, f);
  }
  return f;
}

function asset(res: Response, type: string, text: string): void {
  res.setHeader("cache-control", "no-cache");
  res.setHeader("x-content-type-options", "nosniff");
  res.type(type).send(text);
}

export function adminChartRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get("/admin/assets/uplot.js", route(async (_req, res) => asset(res, "text/javascript", await uplotFile("uPlot.iife.min.js"))));
  r.get("/admin/assets/uplot.css", route(async (_req, res) => asset(res, "text/css", await uplotFile("uPlot.min.css"))));
  r.get("/admin/assets/charts.js", (_req, res) => asset(res, "text/javascript", CHARTS_JS));

  r.get(
    "/api/v1/admin/charts",
    requireActor(ctx),
    requirePlatformAdmin(),
    route(async (req, res) => {
      const f = chartFilterOf(req.query);
      const now = ctx.clock.now();
      const charts = await jobCharts(ctx.db, f, now);
      res.json({ generated_at: now.toISOString(), org: f.org ?? null, system: f.system, ...charts });
    }),
  );
  return r;
}

/**
 * The console's charts' assets (the data is the catalog's `admin.job_charts`, ops/admin-charts.ts,
 * at GET /api/v1/admin/charts):
 *
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
import { chartFields, chartFilterOf } from "../../ops/admin-charts";
import { parseWith, route } from "../http";
import { CHARTS_JS } from "./admin-chart-assets";

/** The jobs page's chart query (the same fields as the charts' own; undefined: not given). */
export function pageChartFilter(raw: Record<string, unknown>) {
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  return chartFilterOf(parseWith(z.strictObject(chartFields), given, "(query)"));
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

export function adminChartRoutes(): Router {
  const r = Router();
  r.get("/admin/assets/uplot.js", route(async (_req, res) => asset(res, "text/javascript", await uplotFile("uPlot.iife.min.js"))));
  r.get("/admin/assets/uplot.css", route(async (_req, res) => asset(res, "text/css", await uplotFile("uPlot.min.css"))));
  r.get("/admin/assets/charts.js", (_req, res) => asset(res, "text/javascript", CHARTS_JS));

  return r;
}

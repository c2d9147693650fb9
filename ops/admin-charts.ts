/**
 * `admin.job_charts`, the console's charts over time (platform admins): per pool, jobs ended and
 * failed per bucket, wait and run p50/p95, queue depth, over the last hour (1-minute buckets) or
 * day (15-minute buckets), from the job rows (queues/sql/jobCharts.ts). System sweeps count only
 * with system=1 or when an organisation is named. A field sent empty means "not given", as an
 * HTML form sends it; the jobs page reads the same fields (api/routes/admin-jobs.ts).
 */
import { z } from "zod";
import { idString } from "../core/boundary";
import { CHART_WINDOWS, jobCharts, type ChartFilter, type ChartWindow } from "../queues/sql/jobCharts";
import { defineOperation } from "./operation";

const WINDOWS = Object.keys(CHART_WINDOWS) as [ChartWindow, ...ChartWindow[]];
const orEmpty = <T extends z.ZodType>(s: T, what: string) => z.union([z.literal(""), s]).optional().describe(what);

/** The charts' query fields. */
export const chartFields = {
  window: orEmpty(z.enum(WINDOWS), "1h (1-minute buckets, the default) or 24h (15-minute buckets)."),
  org: orEmpty(idString(), "Only this organisation's jobs (its id)."),
  system: orEmpty(z.enum(["0", "1"]), "1: count the system sweeps too."),
};

/** The filter the store reads from the fields (empty or absent: the default). */
export function chartFilterOf(q: { window?: string | undefined; org?: string | undefined; system?: string | undefined }): ChartFilter & { org: string | undefined; system: boolean } {
  return { window: (q.window || "1h") as ChartWindow, org: q.org || undefined, system: q.system === "1" };
}

const series = z.array(z.number());
const gaps = z.array(z.number().nullable()).describe("Seconds; null where no job of the pool ended in the bucket.");

export const jobChartsOp = defineOperation({
  name: "admin.job_charts",
  title: "Job charts over time (operators)",
  description:
    "Per pool, over the last hour or day: jobs ended and failed per bucket, wait and run p50/p95 in seconds, and the queue depth at " +
    "each bucket's end; `buckets` are each bucket's start (Unix seconds). Platform admins only.",
  auth: "platform_admin",
  input: chartFields,
  output: z.object({
    generated_at: z.string(),
    org: z.string().nullable(),
    system: z.boolean(),
    window: z.enum(WINDOWS),
    step_s: z.number().int(),
    buckets: z.array(z.number().int()),
    pools: z.array(z.object({ pool: z.string(), ended: series, failed: series, wait_p50: gaps, wait_p95: gaps, run_p50: gaps, run_p95: gaps, depth: series })),
  }),
  http: [{ method: "get", path: "/api/v1/admin/charts" }],
  async run({ services }, input) {
    const f = chartFilterOf(input);
    const now = services.clock.now();
    const charts = await jobCharts(services.db, f, now);
    return { generated_at: now.toISOString(), org: f.org ?? null, system: f.system, ...charts };
  },
});

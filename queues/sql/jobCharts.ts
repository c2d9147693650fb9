/**
 * The console's charts over time (api/routes/admin-charts.ts), read from the job rows with one
 * aggregate statement per chart set and window, bounded by the window's buckets × pools:
 *
 *   per pool and bucket: jobs ended (succeeded, failed, refused, abandoned, canceled), of which
 *   failed (failed, refused, abandoned); wait p50/p95 — submission to first claim
 *   (started_at − created_at) — and run p50/p95 — the last attempt's claim to the end
 *   (finished_at − coalesce(attempt_started_at, started_at)) — of the jobs that ended in it; and the
 *   queue depth at the bucket's end: every job counts as waiting from its submission to its first
 *   claim (or its end, when it never ran). A retried job's second wait is not counted again: the
 *   row keeps its first claim. The exact depth now is the `codesynapse_jobs` gauge.
 *
 * Windows: the last hour in 1-minute buckets (60) and the last day in 15-minute buckets (96).
 * Filters: organisation (system jobs have none, so they drop out), and whether system jobs
 * (the cleanup sweep) count. The rows are found by jobs_finished_idx and jobs_left_queue_idx
 * (migration 20261205_0100_job_chart_indexes); docs/observability.md has the timing on 100k rows.
 */
import { sql, type SqlBool } from "kysely";
import type { Db } from "../../db/schema";

export const CHART_WINDOWS = { "1h": { ms: 3_600_000, stepMs: 60_000 }, "24h": { ms: 86_400_000, stepMs: 900_000 } } as const;
export type ChartWindow = keyof typeof CHART_WINDOWS;

export interface ChartFilter {
  window: ChartWindow;
  org?: string;
  /** Count system jobs (the scheduled cleanup sweep); off by default, as on the jobs page. */
  system?: boolean;
}

export interface PoolSeries {
  pool: string;
  /** Jobs that ended in each bucket (any end), and of those, the failed, refused or abandoned. */
  ended: number[];
  failed: number[];
  /** Seconds; null where no job of the pool ended in the bucket. */
  wait_p50: Array<number | null>;
  wait_p95: Array<number | null>;
  run_p50: Array<number | null>;
  run_p95: Array<number | null>;
  /** Jobs waiting at each bucket's end. */
  depth: number[];
}

export interface JobCharts {
  window: ChartWindow;
  step_s: number;
  /** Each bucket's start, Unix seconds (the x axis). */
  buckets: number[];
  pools: PoolSeries[];
}

function scope(f: ChartFilter) {
  const c = [sql<SqlBool>`true`];
  if (f.org) c.push(sql<SqlBool>`tenant_id = ${f.org}`);
  else if (!f.system) c.push(sql<SqlBool>`not system`);
  return sql<SqlBool>`(${sql.join(c, sql` and `)})`;
}

interface EndedRow {
  pool: string;
  i: number;
  ended: string;
  failed: string;
  wait_p50: number | null;
  wait_p95: number | null;
  run_p50: number | null;
  run_p95: number | null;
}

interface DepthRow {
  pool: string;
  i: number;
  depth: string;
}

/** The charts of one window ending at `now`, aligned to whole steps so consecutive reads line up. */
export async function jobCharts(db: Db, f: ChartFilter, now: Date): Promise<JobCharts> {
  const { ms, stepMs } = CHART_WINDOWS[f.window];
  const n = ms / stepMs;
  const end = new Date(Math.floor(now.getTime() / stepMs) * stepMs + stepMs);
  const start = new Date(end.getTime() - ms);
  const step = stepMs / 1000;
  const where = scope(f);
  const bucket = (col: string) => sql<number>`floor(extract(epoch from (${sql.ref(col)} - ${start}::timestamptz)) / ${step})::int`;

  const [ended, depth] = await Promise.all([
    sql<EndedRow>`
      with e as (
        select pool, ${bucket("finished_at")} as i,
               status in ('failed', 'refused', 'abandoned') as bad,
               extract(epoch from (started_at - created_at))::float8 as wait_s,
               extract(epoch from (finished_at - coalesce(attempt_started_at, started_at)))::float8 as run_s
          from jobs
         where finished_at >= ${start} and finished_at < ${end} and ${where})
      select pool, i, count(*) as ended, count(*) filter (where bad) as failed,
             percentile_cont(0.5) within group (order by greatest(wait_s, 0)) as wait_p50,
             percentile_cont(0.95) within group (order by greatest(wait_s, 0)) as wait_p95,
             percentile_cont(0.5) within group (order by greatest(run_s, 0)) as run_p50,
             percentile_cont(0.95) within group (order by greatest(run_s, 0)) as run_p95
        from e group by pool, i`.execute(db),
    // Depth at each bucket's end: those waiting at the window's start, plus submissions, minus
    // first claims (or ends without a claim), summed bucket by bucket.
    sql<DepthRow>`
      with w as (
        select pool, created_at, coalesce(started_at, finished_at) as left_at
          from jobs
         where (coalesce(started_at, finished_at) >= ${start} or coalesce(started_at, finished_at) is null)
           and created_at < ${end} and ${where}),
      d as (
        select pool, greatest(${bucket("created_at")}, -1) as i, 1 as delta from w
        union all
        select pool, ${bucket("left_at")} as i, -1 as delta from w where left_at is not null and left_at < ${end})
      select pool, i, sum(delta) as depth from d group by pool, i`.execute(db),
  ]);

  const buckets = Array.from({ length: n }, (_, k) => start.getTime() / 1000 + k * step);
  const pools = new Map<string, PoolSeries>();
  const of = (pool: string) => {
    let s = pools.get(pool);
    if (!s) {
      const nulls = () => Array<number | null>(n).fill(null);
      pools.set(pool, (s = { pool, ended: Array<number>(n).fill(0), failed: Array<number>(n).fill(0), wait_p50: nulls(), wait_p95: nulls(), run_p50: nulls(), run_p95: nulls(), depth: Array<number>(n).fill(0) }));
    }
    return s;
  };
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);
  for (const r of ended.rows) {
    if (r.i < 0 || r.i >= n) continue;
    const s = of(r.pool);
    s.ended[r.i] = Number(r.ended);
    s.failed[r.i] = Number(r.failed);
    s.wait_p50[r.i] = round(r.wait_p50);
    s.wait_p95[r.i] = round(r.wait_p95);
    s.run_p50[r.i] = round(r.run_p50);
    s.run_p95[r.i] = round(r.run_p95);
  }
  // Deltas per bucket (-1: before the window), then a running sum.
  const deltas = new Map<string, Map<number, number>>();
  for (const r of depth.rows) {
    const m = deltas.get(r.pool) ?? new Map<number, number>();
    deltas.set(r.pool, m);
    m.set(r.i, (m.get(r.i) ?? 0) + Number(r.depth));
  }
  for (const [pool, m] of deltas) {
    const s = of(pool);
    let level = m.get(-1) ?? 0;
    for (let k = 0; k < n; k++) {
      level += m.get(k) ?? 0;
      s.depth[k] = Math.max(0, level);
    }
  }
  return { window: f.window, step_s: step, buckets, pools: [...pools.values()].sort((a, b) => a.pool.localeCompare(b.pool)) };
}

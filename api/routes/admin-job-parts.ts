/**
 * Pieces of the console's jobs pages beyond the tables (api/routes/admin-jobs.ts): the charts over
 * time (drawn by /admin/assets/charts.js from GET /api/v1/admin/charts), a job's parameters and
 * result as stored (redacted when stored), bounded with a clear "truncated" mark, its follow-up
 * jobs, and the other jobs of the same execution around it.
 */
import type { ChartWindow } from "../../queues/sql/jobCharts";
import type { AdminJobRow } from "../../queues/sql/adminJobs";
import type { FollowUp } from "../../queues/sql/followUps";
import { esc, html, idCell, status, table, when } from "./admin-pages";

/** Characters of a job's parameters or result shown on its page; the rest is cut, and says so. */
export const JSON_SHOWN = 8000;

/** The assets the jobs page loads for its charts (uPlot from node_modules, then our script). */
export const CHART_ASSETS = { styles: ["/admin/assets/uplot.css"], scripts: ["/admin/assets/uplot.js", "/admin/assets/charts.js"] };

const CHARTS: Array<[string, string]> = [
  ["ended", "Jobs ended per minute"],
  ["failed", "Failed, refused or abandoned per minute"],
  ["wait", "Wait: submission → first claim (p95 solid, p50 dashed)"],
  ["run", "Run: claim → end (p95 solid, p50 dashed)"],
  ["depth", "Queue depth (waiting at each step's end)"],
];

/** The charts section: window links keep the page's other query parameters. */
export function chartsSection(q: { window: ChartWindow; org?: string; system: boolean }, keep: Record<string, string>): string {
  const src = new URLSearchParams({ window: q.window, ...(q.org ? { org: q.org } : {}), ...(q.system ? { system: "1" } : {}) });
  const link = (w: ChartWindow, label: string) =>
    w === q.window ? `<strong>${esc(label)}</strong>` : `<a href="/admin/jobs?${esc(new URLSearchParams({ ...keep, window: w }).toString())}">${esc(label)}</a>`;
  const scope = q.org ? "this organisation's jobs" : q.system ? "every job, system sweeps included" : "every organisation's jobs (system sweeps hidden)";
  return `<section id="charts" data-src="/api/v1/admin/charts?${esc(src.toString())}">
<div class="charts-head"><h2>Over time</h2><span>${link("1h", "Last hour")} · ${link("24h", "Last day")}</span><span class="muted">per pool, ${esc(scope)}; from the job rows, read again every 30 s (last at <span id="charts-updated">—</span> UTC)</span></div>
<p id="charts-empty" class="empty" hidden>No job ended or waited in this window.</p>
<div class="charts">${CHARTS.map(([k, label]) => `<figure><figcaption>${esc(label)}</figcaption><div class="chart" data-chart="${k}"></div></figure>`).join("")}</div>
</section>`;
}

/** Pretty JSON, at most JSON_SHOWN characters (cut at a line end), with a mark that says how much was cut. */
export function jsonBlock(value: unknown, what: string): string {
  if (value === null || value === undefined) return `<p class="empty">No ${esc(what)}.</p>`;
  const text = JSON.stringify(value, null, 2) ?? String(value);
  if (text.length <= JSON_SHOWN) return `<pre class="json">${esc(text)}</pre>`;
  const cut = text.lastIndexOf("\n", JSON_SHOWN);
  const shown = text.slice(0, cut > JSON_SHOWN / 2 ? cut : JSON_SHOWN);
  return `<pre class="json">${esc(shown)}\n…</pre><p class="truncated">Truncated: the first ${shown.length.toLocaleString("en")} of ${text.length.toLocaleString("en")} characters are shown. The job's owner reads it whole through the job API.</p>`;
}

/** The follow-up jobs a job started (an ingest's embedding batches), oldest first, each linked. */
export function followUpJobs(followUps: FollowUp[]): string {
  return table(
    ["job", "kind", "status"],
    followUps.map((f) => [idCell(f.job_id, `/admin/jobs/${f.job_id}`), f.kind, status(f.status)]),
    "This job started no follow-up job.",
    ["id"],
  );
}

/** The same execution's other jobs around this one: before, after, or a follow-up of this one. */
export function relatedJobs(job: AdminJobRow, rows: AdminJobRow[], now: Date): string {
  const ran = (r: AdminJobRow) => (r.origin_job_id === job.id ? "follow-up of this job" : r.id === job.origin_job_id ? "started this job" : r.created_at < job.created_at ? "before" : "after");
  return table(
    ["job", "kind", "status", "submitted", "relation"],
    rows.map((r) => [idCell(r.id, `/admin/jobs/${r.id}`), r.kind, status(r.status), html(when(r.created_at, now)), ran(r)]),
    job.system ? "System jobs have no execution." : "No other job of this execution.",
    ["id"],
  );
}

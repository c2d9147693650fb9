/**
 * The operators' view (JOB-9), behind platform-admin auth (cookie or API key):
 *   /admin/jobs    server-rendered from the job rows: depth per pool, oldest
 *                  waiting, running leases with deadlines, failures with their
 *                  codes, schedules. No session ids on the page.
 *   /admin/queues  BullMQ's board (@bull-board/express) when REDIS_URL is set;
 *                  without Redis a page that says dispatch runs from the rows.
 */
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { Router, type RequestHandler } from "express";
import { BullMqDispatcher } from "../../queues/dispatch/bullmq";
import { POOLS } from "../../queues/jobs";
import { listSchedules } from "../../queues/sql/listSchedules";
import { queueDepth } from "../../queues/sql/queueDepth";
import { recentFailures } from "../../queues/sql/recentFailures";
import { runningLeases } from "../../queues/sql/runningLeases";
import { requireActor, requirePlatformAdmin } from "../auth";
import type { AppContext } from "../context";
import { route } from "../http";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function esc(v: unknown): string {
  if (v === null || v === undefined) return "—";
  const s = v instanceof Date ? v.toISOString() : String(v);
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;background:#fff;min-width:480px}
th,td{border:1px solid #d8dde6;padding:4px 10px;text-align:left;font-variant-numeric:tabular-nums}
th{background:#eef1f6}.empty{color:#6b7385}nav a{margin-right:12px}.code{color:#b42318;font-weight:600}
</style></head><body><nav><a href="/admin/jobs">Jobs</a><a href="/admin/queues">Queues (BullMQ)</a></nav>${body}</body></html>`;
}

function age(from: Date | null, now: Date): string {
  if (!from) return "—";
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
}

export function adminJobRoutes(ctx: AppContext): Router {
  const r = Router();
  const admin: RequestHandler[] = [requireActor(ctx), requirePlatformAdmin()];

  r.get(
    "/admin/jobs",
    ...admin,
    route(async (_req, res) => {
      const now = ctx.clock.now();
      const [depth, leases, failures, schedules] = await Promise.all([queueDepth(ctx.db), runningLeases(ctx.db), recentFailures(ctx.db), listSchedules(ctx.db)]);
      const statuses = ["queued", "running", "succeeded", "failed", "refused", "canceled", "abandoned"] as const;
      const pools = [...new Set([...POOLS, ...depth.map((d) => d.pool)])];
      const depthRows = pools.map((p) => {
        const of = (s: string) => depth.find((d) => d.pool === p && d.status === s);
        return [p, ...statuses.map((s) => of(s)?.count ?? 0), age(of("queued")?.oldest_run_at ?? null, now)];
      });
      const dispatch = ctx.jobs?.dispatcher.kind ?? "postgres";
      const body = `<h1>Jobs</h1><p>Dispatch: <strong>${esc(dispatch === "bullmq" ? "BullMQ (Redis)" : "PostgreSQL rows (no Redis)")}</strong> · generated ${esc(now)}</p>
<h2>Depth per pool</h2>${table(["pool", ...statuses, "oldest waiting"], depthRows, "No pools.")}
<h2>Running leases</h2>${table(
        ["job", "kind", "pool", "tenant", "attempt", "progress", "lease owner", "lease deadline", "deadline in", "cancel requested"],
        leases.map((l) => [l.id, l.kind, l.pool, l.tenant_id ?? "system", `${l.attempts}/${l.max_attempts}`, l.progress_total === null ? "—" : `${l.progress_done ?? 0}/${l.progress_total}`,
          l.lease_owner, l.lease_expires_at,
          l.lease_expires_at ? `${Math.round((l.lease_expires_at.getTime() - now.getTime()) / 1000)}s` : "—", l.cancel_requested_at ? "yes" : "no"]),
        "No job is running.",
      )}
<h2>Failures</h2>${table(
        ["job", "kind", "pool", "tenant", "status", "code", "attempts", "finished"],
        failures.map((f) => [f.id, f.kind, f.pool, f.tenant_id ?? "system", f.status, f.error_code, `${f.attempts}/${f.max_attempts}`, f.finished_at]),
        "No failed, refused or abandoned jobs.",
      )}
<h2>Schedules</h2>${table(
        ["schedule", "kind", "owner", "every", "enabled", "next run", "last run", "last job", "last error"],
        schedules.map((s) => [s.id, s.kind, s.system ? "system" : (s.tenant_id ?? "— (no identity)"), `${Math.round(s.interval_ms / 1000)}s`, s.enabled ? "yes" : "no", s.next_run_at, s.last_run_at, s.last_job_id, s.last_error_code]),
        "No schedules.",
      )}`;
      res.type("html").send(page("CodeSynapse jobs", body).replace(/<td>(refused|failed|abandoned)<\/td>/g, '<td class="code">$1</td>'));
    }),
  );

  const dispatcher = ctx.jobs?.dispatcher;
  if (dispatcher instanceof BullMqDispatcher) {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath("/admin/queues");
    createBullBoard({ queues: dispatcher.queues(POOLS).map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
    r.use("/admin/queues", ...admin, serverAdapter.getRouter());
  } else {
    r.get(
      "/admin/queues",
      ...admin,
      route((_req, res) => {
        res.type("html").send(
          page(
            "CodeSynapse queues",
            `<h1>Queues</h1><p><strong>BullMQ is not configured</strong> (REDIS_URL is not set): jobs are dispatched straight from the PostgreSQL job rows, so there is no BullMQ board to show.</p><p>The job rows — depth per pool, running leases, failures and schedules — are on <a href="/admin/jobs">/admin/jobs</a>.</p>`,
          ),
        );
      }),
    );
  }
  return r;
}

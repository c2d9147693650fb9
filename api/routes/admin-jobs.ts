/**
 * The operators' console (JOB-9), behind platform-admin auth (cookie or API key; a signed-out
 * browser is sent to /admin/sign-in and back):
 *   /admin/sign-in  the sign-in page (it posts to POST /api/v1/auth/login; api/routes/admin-assets.ts)
 *   /admin/jobs     server-rendered from the job rows, refreshed live: filters (pool, status,
 *                   organisation, kind, error code; system sweeps hidden unless shown), charts over
 *                   time (ops/admin-charts.ts; assets api/routes/admin-charts.ts), failures grouped by kind and error code with a
 *                   replay of each group, the latest jobs with why they failed, cancel and retry,
 *                   depth per pool, running leases, schedules. Names beside ids (ids in monospace,
 *                   cut to the column, whole on hover and copy), relative times, no empty column.
 *   /admin/jobs/:id one job: its fields, its attempts (lease owner, timings, error), cancel, retry,
 *                   its parameters and result (bounded), the same execution's other jobs.
 * The actions are the operators' API (ops/admin-jobs.ts, catalog operations).
 *   /admin/queues  BullMQ's board (@bull-board/express) when REDIS_URL is set;
 *                  without Redis a page that says dispatch runs from the rows.
 */
import { Router, type Request, type RequestHandler } from "express";
import { z } from "zod";
import { LazyBullMqDispatcher } from "../../queues/service";
import { POOLS } from "../../queues/jobs";
import { authenticate } from "../../core/auth/authenticate";
import { AppError, coerceError } from "../../core/errors";
import { JOB_STATUSES } from "../../ops/job-view";
import { adminJobDetail, failureGroups, filterOptions, listAdminJobs, sameExecutionJobs, type JobFilter } from "../../queues/sql/adminJobs";
import { listSchedules } from "../../queues/sql/listSchedules";
import { queueDepth } from "../../queues/sql/queueDepth";
import { runningLeases } from "../../queues/sql/runningLeases";
import type { AppContext } from "../context";
import { credentialsOf, parseWith, route } from "../http";
import { filterOf, jobFilterFields } from "../../ops/admin-jobs";
import { CONSOLE_CSS, CONSOLE_JS } from "./admin-assets";
import { adminChartRoutes, pageChartFilter } from "./admin-charts";
import { CHART_ASSETS, chartsSection, followUpJobs, jsonBlock, relatedJobs } from "./admin-job-parts";
import { adminJobView, attemptView, groupView } from "../../ops/admin-views";
import { actionButton, esc, html, idCell, page, refusedPage, sendPage, signInPage, status, table, when, type Viewer } from "./admin-pages";

export { esc } from "./admin-pages";

const FIX_KIND = "fix.propose";
const LIVE_MS = 5000;

/** Whether the caller is a browser asking for a page (rather than a client asking for JSON). */
function wantsPage(req: Request): boolean {
  return req.headers.authorization === undefined && req.accepts(["json", "html"]) === "html";
}

/**
 * Platform admins only. A browser without a valid sign-in goes to the sign-in page (and comes back
 * after it); a signed-in non-admin gets a page that says why. API clients get the JSON errors.
 */
export function consoleAuth(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => authenticate(ctx.identity, ctx.clock, credentialsOf(req)))
      .then((actor) => {
        req.actor = actor;
        if (actor.isPlatformAdmin) return next();
        const e = new AppError("platform_admin_required");
        if (!wantsPage(req)) return next(e);
        sendPage(res, 403, refusedPage({ email: actor.email }, e.code, e.message));
      })
      .catch((err: unknown) => {
        const e = coerceError(err);
        if (e.status === 401 && wantsPage(req)) {
          const ended = e.code === "login_session_ended" ? "&ended=1" : "";
          res.redirect(303, `/admin/sign-in?next=${encodeURIComponent(req.originalUrl)}${ended}`);
          return;
        }
        next(err);
      });
  };
}

function age(from: Date | null, now: Date): string {
  if (!from) return "—";
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
}

const viewerOf = (req: Request): Viewer => ({ email: req.actor?.email ?? "" });
const qs = (f: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(f).filter(([, v]) => typeof v === "string" && v !== "") as Array<[string, string]>).toString();

function select(name: string, label: string, options: Array<[string, string]>, current: string | undefined): string {
  const opts = [`<option value="">any</option>`, ...options.map(([v, l]) => `<option value="${esc(v)}"${v === current ? " selected" : ""}>${esc(l)}</option>`)];
  return `<label>${esc(label)}<select name="${esc(name)}">${opts.join("")}</select></label>`;
}

/** An organisation's (or repository's) name with its id under it (muted, monospace, cut to the column). */
function named(name: string | null, id: string | null, none = "system"): ReturnType<typeof html> {
  if (!id) return html(`<span class="muted">${esc(none)}</span>`);
  return html(`<span class="nm" title="${esc(name ?? "(deleted)")}">${esc(name ?? "(deleted)")}</span><span class="muted mono" title="${esc(id)}">${esc(id)}</span>`);
}

export function adminJobRoutes(ctx: AppContext): Router {
  const r = Router();
  const admin: RequestHandler[] = [consoleAuth(ctx)];

  // Same-origin assets of the console (no credentials needed: they hold no data).
  r.get("/admin/assets/console.css", (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.type("text/css").send(CONSOLE_CSS);
  });
  r.get("/admin/assets/console.js", (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.type("text/javascript").send(CONSOLE_JS);
  });

  r.get("/admin/sign-in", (req, res) => {
    sendPage(res, 200, signInPage({ signedOut: req.query.signed_out === "1", ended: req.query.ended === "1" }));
  });
  r.get("/admin", (_req, res) => res.redirect(303, "/admin/jobs"));
  r.use(adminChartRoutes());

  r.get(
    "/admin/jobs",
    ...admin,
    route(async (req, res) => {
      const now = ctx.clock.now();
      // The page's own parameters (chart window, system sweeps shown) beside the job filter.
      const { window: _w, system: _s, ...jobQuery } = req.query as Record<string, unknown>;
      let f: JobFilter;
      try {
        f = filterOf(parseWith(z.strictObject(jobFilterFields), jobQuery, "(query)"));
      } catch {
        f = {};
      }
      let cq: ReturnType<typeof pageChartFilter>;
      try {
        cq = pageChartFilter({ window: req.query.window, system: req.query.system, org: f.org });
      } catch {
        cq = { window: "1h", org: f.org, system: false };
      }
      // Sweeps are hidden from the list and the charts unless shown, or the filter names a kind or
      // pool (the operator asked for them); failures by cause always count them: a failing sweep is news.
      const showSystem = cq.system;
      const listed: JobFilter = { ...f, hide_system: !showSystem && !f.kind && !f.pool };
      const [depth, leases, schedules, jobs, groups, options] = await Promise.all([
        queueDepth(ctx.db),
        runningLeases(ctx.db),
        listSchedules(ctx.db),
        listAdminJobs(ctx.db, listed, 100),
        failureGroups(ctx.db, f),
        filterOptions(ctx.db),
      ]);
      const orgs = options.orgs;
      const orgName = new Map(orgs.map((o) => [o.id, o.name]));
      const pools = [...new Set([...POOLS, ...depth.map((d) => d.pool)])];
      const depthRows = pools.map((p) => {
        const of = (s: string) => depth.find((d) => d.pool === p && d.status === s);
        return [p, ...JOB_STATUSES.map((s) => of(s)?.count ?? 0), age(of("queued")?.oldest_run_at ?? null, now)];
      });
      const dispatch = ctx.jobs?.dispatcher.kind ?? "postgres";
      const filtered = Object.values(f).some((v) => v !== undefined);
      const filters = `<form class="filters" method="get" action="/admin/jobs">
${select("pool", "Pool", pools.map((p) => [p, p]), f.pool)}
${select("status", "Status", JOB_STATUSES.map((s) => [s, s]), f.status)}
${select("org", "Organisation", orgs.map((o) => [o.id, o.name]), f.org)}
${select("kind", "Kind", options.kinds.map((k) => [k, k]), f.kind)}
${select("error_code", "Error code", options.codes.map((c) => [c, c]), f.error_code)}
<label class="check"><input type="checkbox" name="system" value="1"${showSystem ? " checked" : ""}> Show system sweeps</label>
${cq.window !== "1h" ? `<input type="hidden" name="window" value="${esc(cq.window)}">` : ""}<button type="submit" class="primary">Filter</button>${filtered || showSystem ? ` <a href="/admin/jobs">Clear</a>` : ""}</form>`;
      const groupRows = groups.map(groupView).map((g) => [
        g.kind,
        html(`<span class="code">${esc(g.error_code)}</span>`),
        g.count,
        g.message,
        html(when(g.last_at, now)),
        html(
          `<a href="/admin/jobs?${esc(qs({ ...f, kind: g.kind, error_code: g.error_code ?? "", status: "" }))}">show</a> ` +
            (g.kind === FIX_KIND
              ? `<span class="muted">never restarted</span>`
              : g.requeueable > 0
                ? actionButton(`Replay ${g.requeueable}`, "/api/v1/admin/jobs/replay", { ...f, status: undefined, kind: g.kind, error_code: g.error_code ?? undefined }, {
                    confirm: `Run the ${g.requeueable} failed or refused ${g.kind} job(s) with ${g.error_code ?? "no code"} again, each under its own identity?`,
                  })
                : `<span class="muted">nothing to replay</span>`),
        ),
      ]);
      const jobRows = jobs.map(adminJobView).map((j) => [
        idCell(j.id, `/admin/jobs/${j.id}`),
        j.kind,
        j.pool,
        html(
          status(j.status).html +
            (j.cancelable ? ` ${actionButton("Cancel", `/api/v1/admin/jobs/${j.id}/cancel`, {}, { cls: "danger small", done: "Cancel requested." })}` : "") +
            (j.retryable ? ` ${actionButton("Retry", `/api/v1/admin/jobs/${j.id}/retry`, {}, { cls: "small", done: "Queued again." })}` : ""),
        ),
        named(j.org_name, j.org_id),
        named(j.repo_name, j.repo_id, "—"),
        `${j.attempts}/${j.max_attempts}`,
        j.error_code ? html(`<span class="code">${esc(j.error_code)}</span><br>${esc(j.message)}`) : "",
        html(when(j.created_at, now)),
        html(when(j.finished_at, now)),
      ]);
      const body = `<h1>Jobs</h1><p class="muted">Dispatch: <strong>${esc(dispatch === "bullmq" ? "BullMQ (Redis)" : "PostgreSQL rows (no Redis)")}</strong> · live: refreshed every ${LIVE_MS / 1000} s, last at <span id="updated">${esc(now.toISOString().slice(11, 19))}</span> UTC</p>
${filters}<div id="flash" role="status"></div>
${chartsSection(cq, Object.fromEntries(Object.entries(req.query).filter(([k, v]) => k !== "window" && typeof v === "string" && v !== "")) as Record<string, string>)}
<div data-region>
<h2>Failures by cause</h2>${table(["kind", "error code", "jobs", "why", "last", ""], groupRows, "No failed, refused or abandoned jobs" + (filtered ? " match the filter." : "."), [undefined, undefined, undefined, "msg", undefined, "act"])}
<h2>${filtered ? "Jobs matching the filter" : "Latest jobs"}</h2>${table(
        ["job", "kind", "pool", "status", "organisation", "repository", "attempts", "why", "created", "finished"],
        jobRows,
        filtered ? "No job matches the filter." : showSystem ? "No jobs yet." : "No jobs yet (system sweeps are hidden).",
        ["id", undefined, undefined, "act", "id", "id", undefined, "msg", undefined, undefined],
      )}
<h2>Depth per pool</h2>${table(["pool", ...JOB_STATUSES, "oldest waiting"], depthRows, "No pools.")}
<h2>Running leases</h2>${table(
        ["job", "kind", "pool", "organisation", "attempt", "progress", "lease owner", "lease deadline", "cancel requested"],
        leases.map((l) => [
          idCell(l.id, `/admin/jobs/${l.id}`),
          l.kind,
          l.pool,
          named(l.tenant_id ? (orgName.get(l.tenant_id) ?? null) : null, l.tenant_id),
          `${l.attempts}/${l.max_attempts}`,
          l.progress_total === null ? "—" : `${l.progress_done ?? 0}/${l.progress_total}`,
          l.lease_owner ? idCell(l.lease_owner) : "—",
          html(when(l.lease_expires_at, now)),
          l.cancel_requested_at ? "yes" : "no",
        ]),
        "No job is running.",
        ["id", undefined, undefined, "id", undefined, undefined, "id"],
      )}
<h2>Schedules</h2>${table(
        ["schedule", "kind", "owner", "every", "enabled", "next run", "last run", "last job", "last error"],
        schedules.map((s) => [
          s.id,
          s.kind,
          s.system ? "system" : s.tenant_id ? named(orgName.get(s.tenant_id) ?? null, s.tenant_id) : "— (no identity)",
          `${Math.round(s.interval_ms / 1000)}s`,
          s.enabled ? "yes" : "no",
          html(when(s.next_run_at, now)),
          html(when(s.last_run_at, now)),
          s.last_job_id ? idCell(s.last_job_id, `/admin/jobs/${s.last_job_id}`) : "—",
          s.last_error_code,
        ]),
        "No schedules.",
        ["id", undefined, "id", undefined, undefined, undefined, undefined, "id"],
      )}
</div>`;
      sendPage(res, 200, page("CodeSynapse jobs", body, { viewer: viewerOf(req), live: LIVE_MS, ...CHART_ASSETS }));
    }),
  );

  r.get(
    "/admin/jobs/:id",
    ...admin,
    route(async (req, res) => {
      const now = ctx.clock.now();
      const d = await adminJobDetail(ctx.db, String(req.params.id));
      if (!d) {
        sendPage(res, 404, page("Job not found", `<h1>Job not found</h1><p>${esc(new AppError("job_not_found").message)}</p><p><a href="/admin/jobs">All jobs</a></p>`, { viewer: viewerOf(req) }));
        return;
      }
      const j = adminJobView(d.job);
      const attempts = d.attempts.map(attemptView);
      const related = await sameExecutionJobs(ctx.db, d.job);
      const secs = (ms: number | null) => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
      const fields: Array<[string, string]> = [
        ["status", status(j.status).html + (j.cancel_requested ? " (cancel requested)" : "")],
        ["why", j.error_code ? `<span class="code">${esc(j.error_code)}</span> — ${esc(j.message)}` : "—"],
        ["kind · pool", `${esc(j.kind)} · ${esc(j.pool)}`],
        ["organisation", j.org_id ? `${esc(j.org_name)} <span class="muted">${esc(j.org_id)}</span>` : "system"],
        ["repository", j.repo_id ? `${esc(j.repo_name)} <span class="muted">${esc(j.repo_id)}</span>` : "—"],
        ["submitted by", j.actor_user_id ? `${esc(j.actor_email)} <span class="muted">${esc(j.actor_user_id)}</span>` : "—"],
        ["follow-up of", j.origin_job_id ? `<a class="mono" href="/admin/jobs/${esc(j.origin_job_id)}">${esc(j.origin_job_id)}</a>` : "—"],
        ["attempts", `${j.attempts} of ${j.max_attempts}${j.restartable ? "" : " (never restarted)"}`],
        ["lease", j.lease_owner ? `${esc(j.lease_owner)}, expires ${when(j.lease_expires_at, now)}` : "—"],
        ["progress", j.progress ? `${j.progress.done}/${j.progress.total}` : "—"],
        ["created", when(j.created_at, now)],
        ["due", when(j.run_at, now)],
        ["started", when(j.started_at, now)],
        ["finished", when(j.finished_at, now)],
      ];
      const actions =
        (j.cancelable ? actionButton("Cancel", `/api/v1/admin/jobs/${j.id}/cancel`, {}, { cls: "danger", done: "Cancel requested.", id: "cancel" }) : "") +
        (j.retryable ? actionButton("Retry", `/api/v1/admin/jobs/${j.id}/retry`, {}, { cls: "primary", done: "Queued again: a new attempt under the same identity.", id: "retry" }) : "") +
        (!j.restartable && (j.status === "failed" || j.status === "abandoned") ? `<span class="muted">A ${esc(j.kind)} job is never restarted: submit a new one.</span>` : "");
      const body = `<p><a href="/admin/jobs">← All jobs</a></p><h1>Job <span class="mono">${esc(j.id)}</span></h1><div id="flash" role="status"></div>
<div data-region><div class="actions">${actions}</div>
<dl class="kv">${fields.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>
<h2>Attempts</h2>${table(
        ["attempt", "lease owner", "started", "ended", "took", "outcome", "error"],
        attempts.map((a) => [
          a.attempt,
          a.lease_owner,
          html(when(a.started_at, now)),
          html(when(a.ended_at, now)),
          secs(a.duration_ms),
          status(a.outcome),
          a.error_code ? html(`<span class="code">${esc(a.error_code)}</span><br>${esc(a.message)}`) : "",
        ]),
        j.status === "queued" && j.attempts === 0 ? "Not claimed yet." : "No attempt has ended yet.",
        [undefined, undefined, undefined, undefined, undefined, undefined, "msg"],
      )}
<h2>Parameters</h2><p class="muted">As stored: secrets were redacted when the job was submitted.</p>${jsonBlock(d.job.params, "parameters")}
<h2>Result</h2>${jsonBlock(d.job.result, j.status === "succeeded" ? "result" : "result (the job has not succeeded)")}
<h2>Follow-up jobs</h2><p class="muted">The jobs this one started (an ingest's embedding batches), oldest first.</p>${followUpJobs(d.follow_ups)}
<h2>Same execution</h2><p class="muted">The same organisation's and session's other jobs, nearest first.</p>${relatedJobs(d.job, related, now)}</div>`;
      sendPage(res, 200, page(`Job ${j.id}`, body, { viewer: viewerOf(req), live: LIVE_MS }));
    }),
  );

  const dispatcher = ctx.jobs?.dispatcher;
  if (dispatcher instanceof LazyBullMqDispatcher) {
    // The board (and BullMQ) load on the first authorised request to it, not at start.
    let board: Promise<Router> | undefined;
    const load = async (): Promise<Router> => {
      const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }, real] = await Promise.all([
        import("@bull-board/api"),
        import("@bull-board/api/bullMQAdapter"),
        import("@bull-board/express"),
        dispatcher.real(),
      ]);
      const serverAdapter = new ExpressAdapter();
      serverAdapter.setBasePath("/admin/queues");
      createBullBoard({ queues: real.queues(POOLS).map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
      return serverAdapter.getRouter() as Router;
    };
    r.use("/admin/queues", ...admin, (req, res, next) => {
      (board ??= load().catch((err: unknown) => {
        board = undefined;
        throw err;
      })).then((router) => router(req, res, next), next);
    });
  } else {
    r.get(
      "/admin/queues",
      ...admin,
      route((req, res) => {
        sendPage(
          res,
          200,
          page(
            "CodeSynapse queues",
            `<h1>Queues</h1><p><strong>BullMQ is not configured</strong> (REDIS_URL is not set): jobs are dispatched straight from the PostgreSQL job rows, so there is no BullMQ board to show.</p><p>The job rows — depth per pool, running leases, failures and schedules — are on <a href="/admin/jobs">/admin/jobs</a>.</p>`,
            { viewer: viewerOf(req) },
          ),
        );
      }),
    );
  }
  return r;
}

/**
 * The console's charts over time (queues/sql/jobCharts.ts) on PGlite and PostgreSQL: jobs ended and
 * failed per bucket and pool, wait and run p50/p95, queue depth at each bucket's end; the
 * organisation filter; system sweeps left out unless asked for; the 24-hour window's buckets. On
 * PostgreSQL, both windows over 100,000 rows answer within a bound, through the chart indexes.
 * Over HTTP: GET /api/v1/admin/charts for platform admins only, its query checked with stable codes
 * and the rejected value never echoed; uPlot served by the app from node_modules.
 */
import { sql } from "kysely";
import { expect, it } from "vitest";
import { createApp } from "../../api/app";
import type { Db } from "../../db/schema";
import { jobCharts } from "../../queues/sql/jobCharts";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { bearer, call, listen } from "../support/http";

const MIN = 60_000;
/** A whole hour, so bucket k of the 1-hour window is [T0 + k min, T0 + (k+1) min). */
const T0 = Date.UTC(2026, 11, 5, 10, 0, 0);
/** "now" inside the last minute of the window: the window is [T0, T0 + 60 min). */
const NOW = new Date(T0 + 59 * MIN + 30_000);
const at = (minutes: number) => new Date(T0 + minutes * MIN);

interface Row {
  pool: string;
  status: string;
  created: Date;
  started?: Date | null;
  attemptStarted?: Date | null;
  finished?: Date | null;
}

async function insert(db: Db, org: string | null, rows: Row[]): Promise<void> {
  for (const r of rows) {
    const system = org === null;
    await sql`insert into jobs (id, kind, pool, params, system, tenant_id, subject_id, session_id, parent_session_id, actor_user_id,
        status, restartable, attempts, max_attempts, run_at, lease_token, created_at, updated_at, started_at, attempt_started_at, finished_at)
      values (${uniq("job")}, ${system ? "cleanup.sweep" : "demo.kind"}, ${r.pool}, '{}'::jsonb, ${system}, ${org}, ${system ? null : "u1"},
        ${system ? null : "s1"}, ${system ? null : "s1"}, ${system ? null : "u1"}, ${r.status}, true, 1, 3, ${r.created},
        ${r.status === "running" ? "tok" : null}, ${r.created}, ${r.created}, ${r.started ?? null}, ${r.attemptStarted ?? r.started ?? null}, ${r.finished ?? null})`.execute(db);
  }
}

await describeEachDatabase("job charts", (t) => {
  it("counts ended and failed jobs per minute and pool, with wait and run percentiles", async () => {
    const org = uniq("org");
    // Minute 10: three ai jobs end — waits 1, 2, 10 s; runs 4, 6, 30 s — one of them failed.
    await insert(t().db, org, [
      { pool: "ai", status: "succeeded", created: at(9.5), started: new Date(at(9.5).getTime() + 1000), finished: new Date(at(9.5).getTime() + 5000) },
      { pool: "ai", status: "succeeded", created: at(9.5), started: new Date(at(9.5).getTime() + 2000), finished: new Date(at(9.5).getTime() + 8000) },
      { pool: "ai", status: "failed", created: at(9.2), started: new Date(at(9.2).getTime() + 10_000), finished: new Date(at(9.2).getTime() + 40_000) },
      // Minute 20: an ingest refused, an ingest canceled while it waited (no claim, no run time).
      { pool: "ingest", status: "refused", created: at(19), started: at(20.1), finished: at(20.2) },
      { pool: "ingest", status: "canceled", created: at(19), finished: at(20.5) },
      // A retried job: its run time is the last attempt's, not the first claim's.
      { pool: "embedding", status: "succeeded", created: at(30), started: at(30), attemptStarted: at(35), finished: new Date(at(35).getTime() + 3000) },
    ]);
    const c = await jobCharts(t().db, { window: "1h", org }, NOW);
    expect(c.buckets).toHaveLength(60);
    expect(c.buckets[0]).toBe(T0 / 1000);
    expect(c.step_s).toBe(60);
    const ai = c.pools.find((p) => p.pool === "ai")!;
    expect(ai.ended[9]).toBe(3);
    expect(ai.failed[9]).toBe(1);
    expect(ai.ended.reduce((a, b) => a + b, 0)).toBe(3);
    expect(ai.wait_p50[9]).toBeCloseTo(2, 3);
    expect(ai.wait_p95[9]).toBeCloseTo(2 + 0.9 * 8, 3); // percentile_cont: 2 + (10 − 2) × 0.9
    expect(ai.run_p50[9]).toBeCloseTo(6, 3);
    expect(ai.run_p95[9]).toBeCloseTo(6 + 0.9 * 24, 3);
    expect(ai.wait_p50[8]).toBeNull();
    const ingest = c.pools.find((p) => p.pool === "ingest")!;
    expect(ingest.ended[20]).toBe(2);
    expect(ingest.failed[20]).toBe(1);
    const emb = c.pools.find((p) => p.pool === "embedding")!;
    expect(emb.ended[35]).toBe(1);
    expect(emb.run_p50[35]).toBeCloseTo(3, 3);
    expect(emb.wait_p50[35]).toBe(0);
  });

  it("queue depth at each minute's end: waiting from submission to first claim, or to an end without one", async () => {
    const org = uniq("org");
    await insert(t().db, org, [
      // Waiting since before the window, claimed at minute 5.
      { pool: "ai", status: "succeeded", created: new Date(T0 - 30 * MIN), started: at(5.5), finished: at(6) },
      // Two submitted at minute 10; one claimed at 12, one canceled unclaimed at 15.
      { pool: "ai", status: "succeeded", created: at(10.2), started: at(12.5), finished: at(13) },
      { pool: "ai", status: "canceled", created: at(10.3), finished: at(15.5) },
      // Still queued since minute 40.
      { pool: "ai", status: "queued", created: at(40.5) },
      // Ended long before the window: not part of it at all.
      { pool: "ai", status: "succeeded", created: new Date(T0 - 120 * MIN), started: new Date(T0 - 119 * MIN), finished: new Date(T0 - 118 * MIN) },
    ]);
    const ai = (await jobCharts(t().db, { window: "1h", org }, NOW)).pools.find((p) => p.pool === "ai")!;
    expect(ai.depth.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(ai.depth[5]).toBe(0);
    expect(ai.depth.slice(10, 16)).toEqual([2, 2, 1, 1, 1, 0]);
    expect(ai.depth[39]).toBe(0);
    expect(ai.depth.slice(40)).toEqual(Array(20).fill(1));
  });

  it("system sweeps are left out unless asked for; the organisation filter keeps one organisation's jobs", async () => {
    const a = uniq("org");
    const b = uniq("org");
    const done = { status: "succeeded", created: at(50), started: at(50), finished: at(50.5) };
    await insert(t().db, a, [{ pool: "fix", ...done }]);
    await insert(t().db, b, [{ pool: "fix", ...done }, { pool: "fix", ...done }]);
    await insert(t().db, null, [{ pool: "cleanup", ...done }]);
    const sum = (c: Awaited<ReturnType<typeof jobCharts>>, pool: string) => c.pools.find((p) => p.pool === pool)?.ended[50] ?? 0;
    const all = await jobCharts(t().db, { window: "1h" }, NOW);
    expect(sum(all, "cleanup")).toBe(0);
    expect(sum(all, "fix")).toBeGreaterThanOrEqual(3);
    expect(sum(await jobCharts(t().db, { window: "1h", system: true }, NOW), "cleanup")).toBe(1);
    const onlyA = await jobCharts(t().db, { window: "1h", org: a }, NOW);
    expect(sum(onlyA, "fix")).toBe(1);
    expect(onlyA.pools.map((p) => p.pool)).toEqual(["fix"]);
    expect(sum(await jobCharts(t().db, { window: "1h", org: b }, NOW), "fix")).toBe(2);
  });

  it("the last day: 96 buckets of 15 minutes, per-bucket counts", async () => {
    const org = uniq("org");
    await insert(t().db, org, [
      { pool: "ai", status: "succeeded", created: new Date(T0 - 10 * 3_600_000), started: new Date(T0 - 10 * 3_600_000), finished: new Date(T0 - 10 * 3_600_000 + 1000) },
      { pool: "ai", status: "failed", created: at(1), started: at(1), finished: at(2) },
    ]);
    const c = await jobCharts(t().db, { window: "24h", org }, NOW);
    expect(c.buckets).toHaveLength(96);
    expect(c.step_s).toBe(900);
    const end = c.buckets[95]! + 900;
    expect(end * 1000).toBeGreaterThan(NOW.getTime());
    const ai = c.pools.find((p) => p.pool === "ai")!;
    expect(ai.ended.reduce((x, y) => x + y, 0)).toBe(2);
    expect(ai.failed.reduce((x, y) => x + y, 0)).toBe(1);
    const k = c.buckets.findIndex((s) => s * 1000 <= at(2).getTime() && at(2).getTime() < (s + 900) * 1000);
    expect(ai.failed[k]).toBe(1);
  });

  it("GET /api/v1/admin/charts: platform admins only; a bad window or organisation is refused without echoing it; uPlot is served same-origin", async () => {
    const srv = await listen(createApp(testContext(t().db)));
    try {
      const admin = await seedAccount(t().db, { platformAdmin: true });
      const member = await seedAccount(t().db);
      await insert(t().db, admin.orgId, [{ pool: "ai", status: "failed", created: new Date(Date.now() - 60_000), started: new Date(Date.now() - 50_000), finished: new Date(Date.now() - 40_000) }]);
      expect((await call(srv.url, "GET", "/api/v1/admin/charts")).status).toBe(401);
      const refused = await call(srv.url, "GET", "/api/v1/admin/charts", { headers: bearer(member.apiKey) });
      expect([refused.status, refused.body.error.code]).toEqual([403, "platform_admin_required"]);
      const ok = await call(srv.url, "GET", `/api/v1/admin/charts?window=24h&org=${admin.orgId}`, { headers: bearer(admin.apiKey) });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ window: "24h", step_s: 900, org: admin.orgId, system: false });
      expect(ok.body.buckets).toHaveLength(96);
      expect(ok.body.pools).toEqual([expect.objectContaining({ pool: "ai" })]);
      expect(ok.body.pools[0].failed.reduce((a: number, b: number) => a + b, 0)).toBe(1);
      // An organisation id that names no organisation: nothing, not an error.
      const none = await call(srv.url, "GET", "/api/v1/admin/charts?org=org_none", { headers: bearer(admin.apiKey) });
      expect([none.status, none.body.pools]).toEqual([200, []]);
      for (const q of ["window=7d", "org=org-secret%01x", "system=yes", "session=sess-secret-123"]) {
        const bad = await call(srv.url, "GET", `/api/v1/admin/charts?${q}`, { headers: bearer(admin.apiKey) });
        expect([bad.status, bad.body?.error?.code], q).toEqual([400, "validation_failed"]);
        for (const echoed of ["7d", "org-secret", "yes", "sess-secret-123"]) expect(bad.text, q).not.toContain(echoed);
      }
      const js = await fetch(`${srv.url}/admin/assets/uplot.js`);
      expect([js.status, js.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
      expect(await js.text()).toContain("uPlot");
      expect((await fetch(`${srv.url}/admin/assets/uplot.css`)).status).toBe(200);
      const page = await fetch(`${srv.url}/admin/jobs`, { headers: bearer(admin.apiKey) });
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).toContain('<script src="/admin/assets/uplot.js" defer></script>');
      expect(html).not.toMatch(/<script>|<script [^>]*src="https?:/);
    } finally {
      await srv.close();
    }
  });

  it("answers within a bound over 100,000 job rows, through the chart indexes (PostgreSQL)", async (ctx) => {
    if (t().kind !== "postgres") ctx.skip();
    const db = t().db;
    const end = NOW.getTime();
    // 100k rows over the last 30 days (about 2,300 a day in the 24-hour window), 2% still queued.
    await sql`insert into jobs (id, kind, pool, params, system, tenant_id, subject_id, session_id, parent_session_id, actor_user_id,
        status, restartable, attempts, max_attempts, run_at, lease_token, created_at, updated_at, started_at, attempt_started_at, finished_at)
      select 'bulk-' || g, 'demo.kind', (array['ingest','ai','embedding','fix'])[1 + g % 4], '{}'::jsonb, false, 'org-' || (g % 20), 'u', 's', 's', 'u',
             case when g % 50 = 0 then 'queued' when g % 10 = 0 then 'failed' else 'succeeded' end, true, 1, 3, c, null, c, c,
             case when g % 50 = 0 then null else c + interval '2 seconds' end, case when g % 50 = 0 then null else c + interval '2 seconds' end,
             case when g % 50 = 0 then null else c + interval '9 seconds' end
        from generate_series(1, 100000) g, lateral (select to_timestamp(${end / 1000} - g * 25.92) as c) t`.execute(db);
    await sql`analyze jobs`.execute(db);
    const times: Record<string, number> = {};
    for (const window of ["1h", "24h"] as const) {
      await jobCharts(db, { window }, NOW); // warm
      const t0 = performance.now();
      const c = await jobCharts(db, { window }, NOW);
      times[window] = performance.now() - t0;
      expect(c.pools.map((p) => p.pool)).toEqual(expect.arrayContaining(["ai", "embedding", "fix", "ingest"]));
      const t1 = performance.now();
      await jobCharts(db, { window, org: "org-3" }, NOW);
      times[`${window} org`] = performance.now() - t1;
    }
    console.log(`job charts over 100k rows (ms): ${JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])))}`);
    for (const [k, v] of Object.entries(times)) expect(v, k).toBeLessThan(1000);
    const plan = (
      await sql<{ "QUERY PLAN": string }>`explain select count(*) from jobs where finished_at >= ${new Date(end - 3_600_000)} and finished_at < ${NOW}`.execute(db)
    ).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toContain("jobs_finished_idx");
    await sql`delete from jobs where id like 'bulk-%'`.execute(db);
  }, 120_000);
});

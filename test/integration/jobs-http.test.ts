/**
 * HTTP-5 job routes and GET /metrics over the real app: a job is visible only
 * to the execution identity that created it (another session of the same user
 * gets 404 job_not_found), cancel works on queued and running jobs, and no
 * metric label carries a session (or tenant, user, job) id.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { systemClock } from "../../core/clock";
import { revokeSession } from "../../core/registry/registry";
import { JobMetrics } from "../../queues/metrics";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import { claimJobs } from "../../queues/sql/claimJobs";
import { submitJob } from "../../queues/submit";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, executionHeaders, listen, type TestServer } from "../support/http";
import { startTestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;
const headers = (e: Execution) => executionHeaders(e.account.apiKey, e.identity.session_id);

const echo = defineHandler({
  kind: "test.echo",
  pool: "embedding",
  restartable: true,
  maxAttempts: 2,
  repoLevel: "read",
  params: z.strictObject({ text: z.string().max(100) }),
  async run({ params }) {
    return { result: { echoed: params.text.length } };
  },
});

await describeEachDatabase("job routes", (t) => {
  let srv: TestServer;
  let ctx: AppContext;
  const registry = new JobRegistry<JobHandler>().register(echo);
  beforeAll(async () => {
    ctx = testContext(t().db, { clock });
    ctx.jobs = createJobQueue({ db: t().db, identity: identityStore, clock, logger: ctx.logger, registry }).queue;
    ctx.jobMetrics = new JobMetrics({ db: t().db });
    srv = await listen(createApp(ctx));
  });
  afterAll(() => srv.close());

  it("submitJob validates kind, params and repository permission, and stores no credential", async () => {
    const e = await seedExecution(t().db, clock);
    await expect(submitJob(ctx.jobs!, e.identity, e.principal, { kind: "nope", params: {} })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: 1 }, repo: e.account.repoId })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "x" } })).rejects.toMatchObject({ code: "validation_failed" });
    const stranger = await seedAccount(t().db);
    await expect(submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "x" }, repo: stranger.repoId })).rejects.toMatchObject({ code: "repo_not_found" });
    const job = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "hello" }, repo: e.account.repoName });
    expect(job).toMatchObject({ status: "queued", pool: "embedding", repo_id: e.account.repoId, session_id: e.identity.session_id, api_key_id: e.account.keyId });
    expect(JSON.stringify(await jobRow(t().db, job.id))).not.toContain(e.account.apiKey);
  });

  it("list and detail show only the requesting execution identity's jobs", async () => {
    const e = await seedExecution(t().db, clock);
    const sibling = await seedExecution(t().db, clock, { account: e.account }); // same user and org, another session
    const other = await seedExecution(t().db, clock);
    const mine = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "a" }, repo: e.account.repoId });
    const theirs = await submitJob(ctx.jobs!, sibling.identity, sibling.principal, { kind: "test.echo", params: { text: "b" }, repo: e.account.repoId });

    const list = await call(srv.url, "GET", "/api/v1/jobs", { headers: headers(e) });
    expect(list.status).toBe(200);
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([mine.id]);
    const detail = await call(srv.url, "GET", `/api/v1/jobs/${mine.id}`, { headers: headers(e) });
    expect(detail.body).toMatchObject({ id: mine.id, kind: "test.echo", status: "queued", params: { text: "a" }, attempts: 0 });
    expect(detail.text).not.toContain("lease");
    expect(detail.text).not.toContain(e.account.keyId);

    for (const who of [sibling, other]) {
      const r = await call(srv.url, "GET", `/api/v1/jobs/${mine.id}`, { headers: headers(who) });
      expect([r.status, r.body.error.code]).toEqual([404, "job_not_found"]);
      const c = await call(srv.url, "POST", `/api/v1/jobs/${mine.id}/cancel`, { headers: headers(who) });
      expect([c.status, c.body.error.code]).toEqual([404, "job_not_found"]);
    }
    expect((await call(srv.url, "GET", `/api/v1/jobs/${theirs.id}`, { headers: headers(e) })).status).toBe(404);
    expect((await call(srv.url, "GET", "/api/v1/jobs/not-a-job", { headers: headers(e) })).body.error.code).toBe("job_not_found");
    // No execution headers: refused before any job read.
    expect((await call(srv.url, "GET", "/api/v1/jobs", { headers: bearer(e.account.apiKey) })).status).toBe(400);
    // A revoked binding sees nothing any more.
    await revokeSession(identityStore(t().db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
    expect((await call(srv.url, "GET", `/api/v1/jobs/${mine.id}`, { headers: headers(e) })).status).toBe(410);
  });

  it("cancel: a queued job ends canceled; a running one is asked to stop; a finished one is left", async () => {
    const e = await seedExecution(t().db, clock);
    const queued = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "q" }, repo: e.account.repoId });
    const c1 = await call(srv.url, "POST", `/api/v1/jobs/${queued.id}/cancel`, { headers: headers(e) });
    expect([c1.status, c1.body.status, c1.body.error_code, c1.body.message]).toEqual([202, "canceled", "canceled", "It was canceled."]);
    const running = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "r" }, repo: e.account.repoId });
    await claimJobs(t().db, { pool: "embedding", workerId: "w", leaseMs: 60_000, limit: 1, now: clock.now(), ids: [running.id] });
    const c2 = await call(srv.url, "POST", `/api/v1/jobs/${running.id}/cancel`, { headers: headers(e) });
    expect([c2.status, c2.body.status, c2.body.cancel_requested]).toEqual([202, "running", true]);
    const c3 = await call(srv.url, "POST", `/api/v1/jobs/${queued.id}/cancel`, { headers: headers(e) });
    expect([c3.status, c3.body.status]).toEqual([200, "canceled"]);
  });

  it("GET /metrics behind METRICS_TOKEN: 401 without it or with another, 200 with it; the token is never echoed", async () => {
    const token = "scrape-token-0123456789abcdef";
    const guarded = await listen(createApp({ ...testContext(t().db, { clock, env: { METRICS_TOKEN: token } }), jobMetrics: ctx.jobMetrics! }));
    try {
      expect((await call(guarded.url, "GET", "/metrics")).status).toBe(401);
      const wrong = await call(guarded.url, "GET", "/metrics", { headers: { authorization: "Bearer scrape-token-0123456789abcdeX" } });
      expect([wrong.status, wrong.body?.error?.code]).toEqual([401, "unauthenticated"]);
      expect(wrong.text).not.toContain("scrape-token");
      const ok = await call(guarded.url, "GET", "/metrics", { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain("codesynapse_jobs");
      expect(ok.text).not.toContain(token);
    } finally {
      await guarded.close();
    }
  });

  it("GET /metrics reports depth, durations, outcomes and refusals per pool and kind, with no session id in any label", async () => {
    const e = await seedExecution(t().db, clock);
    const refusedE = await seedExecution(t().db, clock);
    const th = await startTestHost(t(), [echo], { metrics: ctx.jobMetrics!, pools: ["embedding"] });
    try {
      const ok = await submitJob(ctx.jobs!, e.identity, e.principal, { kind: "test.echo", params: { text: "m" }, repo: e.account.repoId });
      await th.host.stop();
      const bad = await submitJob(ctx.jobs!, refusedE.identity, refusedE.principal, { kind: "test.echo", params: { text: "n" }, repo: refusedE.account.repoId });
      await revokeSession(identityStore(t().db), clock, { ...refusedE.principal, role: "member" }, refusedE.identity.session_id);
      const th2 = await startTestHost(t(), [echo], { metrics: ctx.jobMetrics!, pools: ["embedding"] });
      try {
        await waitFor(async () => (await jobRow(t().db, ok.id)).status === "succeeded");
        await waitFor(async () => (await jobRow(t().db, bad.id)).status === "refused");
      } finally {
        await th2.stop();
      }
      const r = await call(srv.url, "GET", "/metrics");
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("text/plain");
      expect(r.text).toMatch(/codesynapse_job_outcomes_total\{pool="embedding",kind="test.echo",outcome="succeeded"\} [1-9]/);
      expect(r.text).toMatch(/codesynapse_job_recheck_refusals_total\{pool="embedding",kind="test.echo",stage="before_work",code="session_revoked"\} [1-9]/);
      expect(r.text).toMatch(/codesynapse_job_duration_seconds_count\{pool="embedding",kind="test.echo",outcome="succeeded"\}/);
      expect(r.text).toMatch(/codesynapse_jobs\{pool="embedding",status="succeeded"\} [1-9]/);
      for (const x of [e, refusedE]) {
        for (const id of [x.identity.session_id, x.identity.tenant_id, x.identity.subject_id, ok.id, bad.id]) expect(r.text).not.toContain(id);
      }
      // Every label name is from the closed set.
      const labelNames = new Set([...r.text.matchAll(/[{,]([a-z_]+)="/g)].map((m) => m[1]));
      for (const n of labelNames) expect(["pool", "kind", "outcome", "stage", "code", "status", "result", "le", "method", "route"]).toContain(n);
    } finally {
      await th.stop();
    }
  });
});

/**
 * The operators' views show no thread's session ID (docs/security.md): every operator view of
 * jobs — the admin JSON API (list, detail, cancel, retry, replay), the console's pages (the jobs
 * list and a job's page) and every admin command's answer — is read for jobs of a registered
 * thread, and none of their responses carries the thread's ID, while each still shows the job.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { ADMIN_USAGE } from "../../api/cli-operations";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { bearer, call, listen, type JsonResponse, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;

const handlers: JobHandler[] = [
  defineHandler({
    kind: "test.thread_fails", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams,
    async run() {
      throw new AppError("conflict", { message: "The repository's snapshot is not there yet." });
    },
  }),
];

await describeEachDatabase("operator views never show a thread's session ID", (t) => {
  let th: TestHost;
  let srv: TestServer;
  let admin: Account;
  let e: Execution;
  let failed: string;
  let queued: string;

  beforeAll(async () => {
    th = await startTestHost(t(), handlers);
    const ctx = testContext(t().db, { clock });
    ctx.jobs = { db: t().db, identity: identityStore, clock, registry: th.registry, dispatcher: th.dispatcher };
    srv = await listen(createApp(ctx));
    admin = await seedAccount(t().db, { platformAdmin: true });
    e = await seedExecution(t().db, clock);
    failed = (await enqueueFor(t().db, clock, e, { kind: "test.thread_fails", maxAttempts: 1 })).id;
    await waitFor(async () => (await jobRow(t().db, failed)).status === "failed", 20_000);
    // A kind no worker runs here: it stays queued, so it can be canceled.
    queued = (await enqueueFor(t().db, clock, e, { kind: "test.never_runs", pool: "ingest" })).id;
  });
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
  });

  const noThread = (what: string, r: JsonResponse) => {
    expect(r.status, `${what}: ${r.text.slice(0, 200)}`).toBeLessThan(300);
    expect(r.text, what).not.toContain(e.identity.session_id);
    expect(r.text, what).not.toContain("session_id");
  };

  it("the admin JSON API: list, detail, cancel, retry and replay", async () => {
    const h = bearer(admin.apiKey);
    const list = await call(srv.url, "GET", `/api/v1/admin/jobs?org=${e.account.orgId}`, { headers: h });
    noThread("list", list);
    // Still the jobs, with who and where.
    const mine = (list.body.jobs as { id: string; org_id: string; actor_user_id: string }[]).filter((j) => j.id === failed || j.id === queued);
    expect(mine.map((j) => [j.org_id, j.actor_user_id])).toEqual([
      [e.account.orgId, e.account.userId],
      [e.account.orgId, e.account.userId],
    ]);
    const detail = await call(srv.url, "GET", `/api/v1/admin/jobs/${failed}`, { headers: h });
    noThread("detail", detail);
    expect(detail.body.job.id).toBe(failed);
    noThread("cancel", await call(srv.url, "POST", `/api/v1/admin/jobs/${queued}/cancel`, { headers: h }));
    noThread("retry", await call(srv.url, "POST", `/api/v1/admin/jobs/${failed}/retry`, { headers: h }));
    await waitFor(async () => (await jobRow(t().db, failed)).status === "failed", 20_000);
    noThread("replay", await call(srv.url, "POST", "/api/v1/admin/jobs/replay", { headers: h, body: { org: e.account.orgId, kind: "test.thread_fails" } }));
  });

  it("the console's pages: the jobs list and a job's page", async () => {
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: admin.email, password: admin.password } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = await call(srv.url, "GET", `/admin/jobs?org=${e.account.orgId}`, { headers: { cookie } });
    noThread("jobs page", page);
    expect(page.text).toContain(failed);
    const one = await call(srv.url, "GET", `/admin/jobs/${failed}`, { headers: { cookie } });
    noThread("job page", one);
    expect(one.text).toContain(failed);
  });

  it("the admin commands' answers (the CLI's remote mode prints them)", async () => {
    const h = bearer(admin.apiKey);
    for (const name of Object.keys(ADMIN_USAGE)) {
      // Every command, with the organisation of the thread's jobs where it takes one; a refusal (a
      // missing flag) is fixed text too, so every answer is read.
      const r = await call(srv.url, "POST", `/api/v1/admin/commands/${name}`, { headers: h, body: { org: e.account.orgId } });
      expect(r.text, name).not.toContain(e.identity.session_id);
    }
  });
});

/**
 * JOB-9 in a real headless Chromium (playwright-core + Debian's chromium):
 * a platform admin signed in with the browser cookie sees /admin/jobs with
 * real job rows (depth, running lease, failure codes, schedules) and BullMQ's
 * board at /admin/queues; a non-admin gets 403 on both. Screenshots are kept
 * under test/artifacts/.
 */
import { mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Redis } from "ioredis";
import { type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { suspendMember } from "../../core/accounts/accounts";
import { queueName } from "../../queues/dispatch/bullmq";
import { JobMetrics } from "../../queues/metrics";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import { claimJobs } from "../../queues/sql/claimJobs";
import { failJob } from "../../queues/sql/failJob";
import { upsertSchedule } from "../../queues/sql/upsertSchedule";
import type { JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeInChromium, launchChromium } from "../support/chromium";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { startTestHost } from "../support/job-host";
import { enqueueFor, jobRow, seedExecution, waitFor, anyParams } from "../support/jobs";
import { probeService } from "../support/services";
import { identityStore } from "../../db/sql/identity/store";

const ARTIFACTS = path.resolve("test/artifacts");
const redis = await probeService("redis");
const clock = systemClock;

describeInChromium("operators' dashboard in headless Chromium", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let browser: BrowserContext;
  let stopDispatcher: () => Promise<void>;
  const bullPrefix = `cs-test-${randomBytes(4).toString("hex")}`;
  const dispatchedIds: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await openTestDatabase("pglite");
    const ctx = testContext(database.db, { clock });
    const registry = new JobRegistry<JobHandler>().register({ kind: "demo.summary", pool: "ai", restartable: true, maxAttempts: 3, params: anyParams, run: async () => ({}) });
    const setup = createJobQueue({ db: database.db, identity: identityStore, clock, logger: ctx.logger, registry, ...(redis.available ? { redisUrl: redis.url, bullPrefix } : {}) });
    ctx.jobs = setup.queue;
    ctx.jobMetrics = new JobMetrics({ db: database.db });
    stopDispatcher = () => setup.queue.dispatcher.close();
    srv = await listen(createApp(ctx));
    browser = await launchChromium();

    // Real rows: queued (dispatched to BullMQ when Redis is there), running, failed, refused, a schedule.
    const e = await seedExecution(database.db, clock);
    for (let i = 0; i < 3; i++) {
      const j = await enqueueFor(database.db, clock, e, { kind: "demo.summary", pool: "ai" });
      await setup.queue.dispatcher.dispatch([j], clock.now());
      dispatchedIds.push(j.id);
    }
    const running = await enqueueFor(database.db, clock, e, { kind: "demo.ingest", pool: "ingest" });
    await claimJobs(database.db, { pool: "ingest", workerId: "worker-demo-1", leaseMs: 120_000, limit: 1, now: clock.now(), ids: [running.id] });
    const failing = await enqueueFor(database.db, clock, e, { kind: "demo.embed", pool: "embedding", maxAttempts: 1 });
    const [f] = await claimJobs(database.db, { pool: "embedding", workerId: "worker-demo-2", leaseMs: 60_000, limit: 1, now: clock.now(), ids: [failing.id] });
    await failJob(database.db, { id: failing.id, token: f!.lease_token!, now: clock.now(), errorCode: "handler_failed", retryable: true });
    // A refusal produced by the real runner: the member is suspended while the job waits.
    const suspended = await seedExecution(database.db, clock);
    const refusedJob = await enqueueFor(database.db, clock, suspended, { kind: "demo.refused", pool: "fix", restartable: false, maxAttempts: 1 });
    await suspendMember(identityStore(database.db), { orgId: suspended.account.orgId, userId: suspended.account.userId, at: new Date() });
    const th = await startTestHost(database, [{ kind: "demo.refused", pool: "fix", restartable: false, maxAttempts: 1, params: anyParams, run: async () => ({}) }]);
    await waitFor(async () => (await jobRow(database.db, refusedJob.id)).status === "refused");
    await th.stop();
    await upsertSchedule(database.db, clock.now(), { id: "demo:nightly-summary", kind: "demo.summary", params: {}, intervalMs: 86_400_000, identity: e.identity,
      actor: { userId: e.account.userId, apiKeyId: e.account.keyId, loginSessionId: null }, firstRunAt: new Date(clock.now().getTime() + 3_600_000) });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await stopDispatcher?.();
    if (redis.available) {
      const r = new Redis(redis.url!);
      const keys = await r.keys(`${bullPrefix}:*`);
      if (keys.length > 0) await r.del(...keys);
      await r.quit();
    }
    await database?.close();
  });

  async function signedIn(platformAdmin: boolean) {
    const a = await seedAccount(database.db, { platformAdmin });
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(login.status).toBe(200);
    const [name, value] = (login.headers.get("set-cookie") ?? "").split(";")[0]!.split("=");
    const context = browser;
    await context.clearCookies();
    await context.addCookies([{ name: name!, value: value!, url: srv.url }]);
    return { a, context };
  }

  it("a platform admin sees the job rows at /admin/jobs", async () => {
    const { context } = await signedIn(true);
    const page = await context.newPage();
    const res = await page.goto(`${srv.url}/admin/jobs`);
    expect(res?.status()).toBe(200);
    const text = await page.locator("body").innerText();
    expect(text).toContain("Depth per pool");
    expect(text).toMatch(/ai\s+3\s+0/); // three queued in the ai pool
    expect(text).toContain("worker-demo-1");
    expect(text).toContain("handler_failed");
    expect(text).toContain("membership_suspended");
    expect(text).toContain("demo:nightly-summary");
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-jobs.png"), fullPage: true });
    await page.close();
  });

  it("/admin/queues shows BullMQ's board (or, without Redis, says why there is none)", async () => {
    const { context } = await signedIn(true);
    const page = await context.newPage();
    const res = await page.goto(`${srv.url}/admin/queues`);
    expect(res?.status()).toBe(200);
    if (redis.available) {
      // Queue names carry a Redis Cluster hash tag ({jobs-ai}, queues/dispatch/bullmq.ts).
      await page.getByText(queueName("ai")).first().waitFor({ timeout: 20_000 });
      // The ai queue's waiting messages: each names a job row id and nothing else.
      await page.goto(`${srv.url}/admin/queues/queue/${encodeURIComponent(queueName("ai"))}?status=waiting`);
      await page.getByText(dispatchedIds[0]!).first().waitFor({ timeout: 20_000 });
    } else {
      expect(await page.locator("body").innerText()).toContain("BullMQ is not configured");
    }
    await page.screenshot({ path: path.join(ARTIFACTS, "admin-queues.png"), fullPage: true });
    await page.close();
  });

  it("a non-admin gets 403 on both routes, with the cookie and with an API key", async () => {
    const { a, context } = await signedIn(false);
    const page = await context.newPage();
    for (const route of ["/admin/jobs", "/admin/queues"]) {
      const res = await page.goto(`${srv.url}${route}`);
      expect(res?.status(), route).toBe(403);
      expect(await page.locator("body").innerText()).toContain("platform_admin_required");
      const viaKey = await call(srv.url, "GET", route, { headers: bearer(a.apiKey) });
      expect(viaKey.status).toBe(403);
      expect((await call(srv.url, "GET", route)).status).toBe(401);
    }
    await page.close();
  });
});

/**
 * The operators' console after a mixed run, in a real headless Chromium at 1280 px (beside
 * admin-dashboard.test.ts, on a database of its own so its pools do not meet that file's rows):
 * ingests, AI questions, failures, a result too large to show whole, all run by the real worker
 * pools, and the minute's system sweeps; then the jobs are spread over the last hour (their
 * timestamps moved back together) so the charts have a shape.
 *  - /admin/jobs draws the charts (uPlot served by the app, under the page's CSP: no violation),
 *    hides the sweeps until the toggle shows them (a failed sweep still counts in the failures), has a repository column, no empty column, ids on
 *    one line (the whole id in the title and the text), nothing wider than the window;
 *  - a job's page shows its parameters (the question) and its result (the answer, the ingest
 *    counts), a large result cut with a "Truncated" mark, and the same execution's other jobs;
 *  - screenshots: test/artifacts/screenshots/{console-jobs-charts,console-jobs-sweeps,console-job-detail,
 *    console-job-truncated,console-charts-day,console-sign-in}.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { enqueueJob } from "../../queues/sql/enqueueJob";
import { claimJobs } from "../../queues/sql/claimJobs";
import { failJob } from "../../queues/sql/failJob";
import { finishJob } from "../../queues/sql/finishJob";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeInChromium, launchChromium } from "../support/chromium";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { listen, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const SHOTS = path.resolve("test/artifacts/screenshots");
const WIDTH = 1280;
const clock = systemClock;
const QUESTION = "Where does the claim recheck the member's role before a job runs?";
const ANSWER = "In claimJobsChecked: the claim joins the membership and refuses a suspended member.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const handlers: JobHandler[] = [
  defineHandler({ kind: "demo.ask", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams, async run() {
    await sleep(20 + Math.random() * 150);
    return { result: { answer: ANSWER, sources: ["queues/sql/claimJobs.ts", "core/authorize.ts"] } };
  } }),
  defineHandler({ kind: "demo.ingest", pool: "ingest", restartable: true, maxAttempts: 1, params: anyParams, async run() {
    await sleep(50 + Math.random() * 250);
    return { result: { files: 42, facts: 1310, skipped: 3 } };
  } }),
  defineHandler({ kind: "demo.flaky", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams, async run() {
    throw new AppError("validation_failed", { message: "The question names no repository file." });
  } }),
  defineHandler({ kind: "demo.report", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams, async run() {
    return { result: { lines: Array.from({ length: 600 }, (_, i) => `line ${i}: a finding about file ${i}`) } };
  } }),
];

describeInChromium("operators' console: charts and job pages after a mixed run (1280 px)", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost;
  let browser: BrowserContext;
  let admin: Account;
  let askId = "";
  let ingestId = "";
  let reportId = "";
  const cspViolations: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    database = await openTestDatabase("pglite");
    th = await startTestHost(database, handlers);
    const ctx = testContext(database.db, { clock });
    ctx.jobs = { db: database.db, identity: identityStore, clock, registry: th.registry, dispatcher: th.dispatcher };
    srv = await listen(createApp(ctx));
    browser = await launchChromium();
    admin = await seedAccount(database.db, { platformAdmin: true });
    const a = await seedExecution(database.db, clock);
    const b = await seedExecution(database.db, clock);
    const ids: string[] = [];
    for (let i = 0; i < 14; i++) ids.push((await enqueueFor(database.db, clock, i % 2 ? a : b, { kind: "demo.ask", pool: "ai", params: { question: QUESTION } })).id);
    for (let i = 0; i < 6; i++) ids.push((await enqueueFor(database.db, clock, a, { kind: "demo.ingest", pool: "ingest", params: { snapshot: `snap-${i}` } })).id);
    for (let i = 0; i < 5; i++) ids.push((await enqueueFor(database.db, clock, b, { kind: "demo.flaky", pool: "ai", maxAttempts: 1, params: { question: "Which file?" } })).id);
    ids.push((reportId = (await enqueueFor(database.db, clock, a, { kind: "demo.report", pool: "ai", params: { scope: "all" } })).id));
    [askId, ingestId] = [ids[1]!, ids[14]!];
    for (const id of ids) await waitFor(async () => ["succeeded", "failed"].includes((await jobRow(database.db, id)).status), 30_000);
    // The minute's system sweeps (no identity), through the real claim and finish.
    for (let i = 0; i < 8; i++) {
      const s = await enqueueJob(database.db, clock.now(), { kind: "cleanup.sweep", pool: "cleanup", params: {}, repoId: null, restartable: true, maxAttempts: 1, identity: null, actor: null });
      const [c] = await claimJobs(database.db, { pool: "cleanup", workerId: "sweeper", leaseMs: 60_000, limit: 1, now: clock.now(), ids: [s!.id] });
      await finishJob(database.db, { id: s!.id, token: c!.lease_token!, now: clock.now(), result: { sessions_ended: i, rows_purged: 3 * i } });
    }
    // One sweep that failed: news, so the failures by cause count it even while sweeps are hidden.
    const bad = await enqueueJob(database.db, clock.now(), { kind: "cleanup.sweep", pool: "cleanup", params: {}, repoId: null, restartable: true, maxAttempts: 1, identity: null, actor: null });
    const [bc] = await claimJobs(database.db, { pool: "cleanup", workerId: "sweeper", leaseMs: 60_000, limit: 1, now: clock.now(), ids: [bad!.id] });
    await failJob(database.db, { id: bad!.id, token: bc!.lease_token!, now: clock.now(), errorCode: "handler_failed", retryable: false });
    // A backlog still waiting (nothing runs the embedding pool here).
    for (let i = 0; i < 4; i++) await enqueueFor(database.db, clock, a, { kind: "demo.embed", pool: "embedding" });
    // As an ingest's embedding batches are linked to it (the real link: test/integration/job-follow-ups.test.ts).
    await sql`update jobs set origin_job_id = ${ingestId} where kind = 'demo.embed'`.execute(database.db);
    // Spread the ended jobs over the last hour, each moved back as a whole (its wait and run kept).
    await sql`update jobs set created_at = created_at - m, run_at = run_at - m, started_at = started_at - m, attempt_started_at = attempt_started_at - m, finished_at = finished_at - m
      from (select id as jid, (abs(hashtext(id)) % 55) * interval '1 minute' as m from jobs where finished_at is not null) t where id = t.jid`.execute(database.db);
    await sql`update job_attempts set started_at = j.started_at, ended_at = j.finished_at from jobs j where j.id = job_attempts.job_id`.execute(database.db);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await th?.stop();
    await database?.close();
  });

  async function page(): Promise<Page> {
    const p = await browser.newPage();
    await p.setViewportSize({ width: WIDTH, height: 900 });
    p.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    return p;
  }

  async function signIn(p: Page, next: string): Promise<void> {
    await browser.clearCookies();
    await p.goto(`${srv.url}${next}`);
    await p.waitForURL(/\/admin\/sign-in/);
    await p.fill("#email", admin.email);
    await p.fill("#password", admin.password);
    await p.click("#sign-in button");
    await p.waitForURL((u) => u.pathname === next.split("?")[0]);
  }

  it("the sign-in page", async () => {
    const p = await page();
    await browser.clearCookies();
    await p.goto(`${srv.url}/admin/sign-in`);
    await p.screenshot({ path: path.join(SHOTS, "console-sign-in.png"), fullPage: true });
    expect(await p.locator("h1").innerText()).toBe("Sign in");
    await p.close();
  });

  it("/admin/jobs: charts over the last hour and day, sweeps hidden until shown, a repository column, no empty column, ids on one line", async () => {
    const p = await page();
    await signIn(p, "/admin/jobs");
    await p.waitForSelector("#charts[data-drawn='1h']", { timeout: 15_000 });
    expect(await p.locator("#charts .chart canvas").count()).toBe(5);
    // The legend names the pools that ran; the backlog shows in the depth chart's data.
    const legend = await p.locator("#charts").innerText();
    for (const pool of ["ai", "ingest", "embedding"]) expect(legend).toContain(pool);
    expect(legend).not.toContain("cleanup");
    const charts = await (await p.request.get(`${srv.url}/api/v1/admin/charts?window=1h`)).json();
    const ai = charts.pools.find((x: { pool: string }) => x.pool === "ai");
    expect(ai.ended.reduce((s: number, v: number) => s + v, 0)).toBe(20);
    expect(ai.failed.reduce((s: number, v: number) => s + v, 0)).toBe(5);
    expect(charts.pools.find((x: { pool: string }) => x.pool === "embedding").depth.at(-1)).toBe(4);

    const table = p.locator("h2:has-text('Latest jobs') + table");
    const headers = await table.locator("th").allInnerTexts();
    expect(headers).toEqual(["job", "kind", "pool", "status", "organisation", "repository", "attempts", "why", "created", "finished"]);
    for (let i = 0; i < headers.length; i++) {
      const cells = await table.locator(`tbody tr td:nth-child(${i + 1})`).allInnerTexts();
      expect(cells.some((c) => c.trim() !== ""), `column ${headers[i]} has something`).toBe(true);
    }
    expect(await table.innerText()).not.toContain("cleanup.sweep");
    expect(await p.locator("h2:has-text('Failures by cause') + table").innerText()).toMatch(/cleanup\.sweep\s+handler_failed\s+1/);
    // An id: one line, in monospace, the whole id in its title and its text (what a copy takes).
    const id = table.locator("td.id a.mono").first();
    const full = await id.getAttribute("title");
    expect(await id.textContent()).toBe(full);
    const box = await id.boundingBox();
    expect(box!.height).toBeLessThan(22);
    await p.screenshot({ path: path.join(SHOTS, "console-jobs-charts.png"), fullPage: true });
    expect((await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number).toBe(0);

    // One toggle shows the sweeps (and counts them in the charts).
    await p.check("form.filters input[name=system]");
    await p.waitForURL(/system=1/);
    await p.waitForSelector("#charts[data-drawn='1h']", { timeout: 15_000 });
    expect(await p.locator("h2:has-text('Latest jobs') + table").innerText()).toContain("cleanup.sweep");
    expect(await p.locator("#charts").innerText()).toContain("cleanup");
    await p.screenshot({ path: path.join(SHOTS, "console-jobs-sweeps.png"), fullPage: true });

    // A filter that names the sweeps' pool shows them without the toggle.
    await p.goto(`${srv.url}/admin/jobs?pool=cleanup`);
    expect(await p.locator("h2:has-text('Jobs matching the filter') + table").innerText()).toContain("cleanup.sweep");
    await p.goto(`${srv.url}/admin/jobs?system=1`);

    // The last day: 96 buckets of 15 minutes.
    await p.click("text=Last day");
    await p.waitForSelector("#charts[data-drawn='24h']", { timeout: 15_000 });
    await p.locator("#charts").screenshot({ path: path.join(SHOTS, "console-charts-day.png") });
    expect(cspViolations).toEqual([]);
    await p.close();
  });

  it("a job's page shows its parameters and result, a large result cut with a mark, and the same execution's jobs", async () => {
    const p = await page();
    await signIn(p, `/admin/jobs/${askId}`);
    const text = await p.locator("main").innerText();
    expect(text).toContain(QUESTION);
    expect(text).toContain(ANSWER);
    expect(text).toContain("Same execution");
    expect((await p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number).toBe(0);
    await p.screenshot({ path: path.join(SHOTS, "console-job-detail.png"), fullPage: true });

    await p.goto(`${srv.url}/admin/jobs/${ingestId}`);
    expect(await p.locator("pre.json").nth(1).innerText()).toContain('"facts": 1310');
    // Its follow-up jobs, each linked, and each names it back.
    const followUps = p.locator("h2:has-text('Follow-up jobs') + p + table");
    expect((await followUps.innerText()).match(/demo\.embed/g)).toHaveLength(4);
    await followUps.locator("a").first().click();
    await p.waitForURL((u) => u.pathname !== `/admin/jobs/${ingestId}`);
    expect(await p.locator("dl.kv").innerText()).toContain(ingestId);

    await p.goto(`${srv.url}/admin/jobs/${reportId}`);
    const mark = await p.locator(".truncated").innerText();
    expect(mark).toMatch(/^Truncated: the first [\d,]+ of [\d,]+ characters are shown/);
    const shown = await p.locator("pre.json").nth(1).innerText();
    expect(shown).toContain("line 0:");
    expect(shown).not.toContain("line 599:");
    await p.locator(".truncated").scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(SHOTS, "console-job-truncated.png"), fullPage: false });
    expect(cspViolations).toEqual([]);
    await p.close();
  });
});

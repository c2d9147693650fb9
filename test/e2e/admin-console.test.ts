/**
 * The operators' console in a real headless Chromium at 1280 px, over the real app and runner:
 *  - a signed-out browser asking for /admin/jobs lands on the sign-in page and, signed in, back on
 *    /admin/jobs; a wrong password and a locked-out account are said in words;
 *  - the jobs page shows a failed job's reason, grouped by kind and error code; the job's page
 *    shows its attempts; Retry runs it again and the page updates itself (live) to succeeded;
 *    Replay of a group runs every job of it again; the filters narrow the list;
 *  - a signed-in non-admin is refused with a page that says why; sign-out ends the sign-in.
 * Every screenshot (test/artifacts/console-*.png) is checked: a full-page shot 1280 px wide means
 * nothing spilled sideways; the document's own scroll width is checked too.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeInChromium, launchChromium } from "../support/chromium";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { listen, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const ARTIFACTS = path.resolve("test/artifacts");
const WIDTH = 1280;
const clock = systemClock;
const REASON = "No snapshot path was given and the repository has no local ingest.";
/** While false, demo.snapshot jobs fail with REASON (a 4xx: not retried by themselves). */
let snapshotThere = false;

const handlers: JobHandler[] = [
  defineHandler({
    kind: "demo.snapshot", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams,
    async run() {
      if (!snapshotThere) throw new AppError("validation_failed", { message: REASON });
      return { result: { ok: true } };
    },
  }),
];

/** A PNG's width, from its IHDR chunk. */
function pngWidth(file: string): number {
  return readFileSync(file).readUInt32BE(16);
}

describeInChromium("operators' console in headless Chromium (1280 px)", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost;
  let browser: BrowserContext;
  let admin: Account;
  const failedIds: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await openTestDatabase("pglite");
    th = await startTestHost(database, handlers);
    const ctx = testContext(database.db, { clock });
    ctx.jobs = { db: database.db, identity: identityStore, clock, registry: th.registry, dispatcher: th.dispatcher };
    srv = await listen(createApp(ctx));
    browser = await launchChromium();
    admin = await seedAccount(database.db, { platformAdmin: true });
    const e = await seedExecution(database.db, clock);
    for (let i = 0; i < 3; i++) failedIds.push((await enqueueFor(database.db, clock, e, { kind: "demo.snapshot", maxAttempts: 1 })).id);
    for (const id of failedIds) await waitFor(async () => (await jobRow(database.db, id)).status === "failed", 20_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await th?.stop();
    await database?.close();
  });

  async function freshPage(): Promise<Page> {
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.setViewportSize({ width: WIDTH, height: 900 });
    return page;
  }

  /** A full-page screenshot, checked: as wide as the window (nothing overflows), and the document agrees. */
  async function shot(page: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `console-${name}.png`);
    // (Browser-side expressions as strings: this file is type-checked without the DOM library.)
    const overflow = (await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number;
    expect(overflow, `${name}: horizontal overflow`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: file, fullPage: true });
    expect(pngWidth(file), `${name}: screenshot width`).toBe(WIDTH);
  }

  async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
    await page.fill("#email", who.email);
    await page.fill("#password", who.password);
    await page.click("#sign-in button[type=submit]");
  }

  it("signed out, /admin/jobs sends the browser to sign in and back; wrong passwords and lockout are said in words", async () => {
    const page = await freshPage();
    await page.goto(`${srv.url}/admin/jobs?status=failed`);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/admin/jobs?status=failed");
    await shot(page, "sign-in");

    await signIn(page, { email: admin.email, password: "not the password" });
    await page.getByText("The email or password is wrong.").waitFor();
    await shot(page, "sign-in-wrong-password");

    // Another account, locked out after the free failures (the admin's own account is not touched).
    const victim = await seedAccount(database.db);
    await page.evaluate('document.querySelector("#sign-in-error").textContent = ""');
    for (let i = 0; i < 5; i++) {
      await signIn(page, { email: victim.email, password: `wrong-${i}` });
      // (A locator, not waitForFunction: the page's CSP refuses the eval that would need.)
      await page.locator("#sign-in-error").filter({ hasText: /\S/ }).waitFor();
      await page.evaluate('document.querySelector("#sign-in-error").textContent = ""');
    }
    await signIn(page, { email: victim.email, password: victim.password });
    await page.getByText(/Too many failed sign-ins from this browser: signing in is blocked for \d+ s/).waitFor();
    await shot(page, "sign-in-locked");

    await signIn(page, admin);
    await page.waitForURL(`${srv.url}/admin/jobs?status=failed`);
    await page.close();
  });

  it("the jobs page shows the failed jobs' reason, grouped; the job's page retries it and updates itself", async () => {
    const page = await freshPage();
    await page.goto(`${srv.url}/admin/sign-in?next=/admin/jobs`);
    await signIn(page, admin);
    await page.waitForURL(`${srv.url}/admin/jobs`);
    const groups = page.locator("h2:has-text('Failures by cause') + table");
    await expect(groups.locator("tr", { hasText: "demo.snapshot" }).innerText()).resolves.toContain(REASON);
    expect(await groups.locator("tr", { hasText: "demo.snapshot" }).innerText()).toMatch(/validation_failed\s+3\s/);
    // Names beside ids, relative times.
    const text = await page.locator("body").innerText();
    expect(text).toMatch(/org-[0-9a-f]+\s*\n?\s*org_/);
    expect(text).toMatch(/\d+ s ago|just now/);
    await shot(page, "jobs-failed");

    // The filters narrow the list (a GET form: the URL says what is shown).
    await page.selectOption("select[name=status]", "failed");
    await page.selectOption("select[name=kind]", "demo.snapshot");
    await page.click("form.filters button[type=submit]");
    await page.waitForURL(/status=failed/);
    expect(await page.locator("h2:has-text('Jobs matching the filter') + table tbody tr").count()).toBe(3);

    // One job's page: its attempt (lease owner, timings, error), then Retry.
    await page.click(`a[href="/admin/jobs/${failedIds[0]}"]`);
    await page.waitForURL(`${srv.url}/admin/jobs/${failedIds[0]}`);
    const attempts = page.locator("h2:has-text('Attempts') + table");
    expect(await attempts.innerText()).toMatch(/1\s+w-\d+-[0-9a-f]+/);
    expect(await attempts.innerText()).toContain(REASON);
    snapshotThere = true;
    await page.click("#retry");
    await page.getByText("Queued again: a new attempt under the same identity.").waitFor();
    // Live: the page re-reads itself; no reload here.
    await page.locator("dl.kv dd .st-succeeded").waitFor({ timeout: 20_000 });
    expect(await attempts.locator("tbody tr").count()).toBe(2);
    await shot(page, "job-retried");
    expect((await jobRow(database.db, failedIds[0]!)).status).toBe("succeeded");
    await page.close();
  });

  it("Replay of a group runs every job in it again", async () => {
    const page = await freshPage();
    await page.goto(`${srv.url}/admin/sign-in?next=/admin/jobs`);
    await signIn(page, admin);
    await page.waitForURL(`${srv.url}/admin/jobs`);
    page.on("dialog", (d) => void d.accept());
    const row = page.locator("h2:has-text('Failures by cause') + table tr", { hasText: "demo.snapshot" });
    await row.getByRole("button", { name: "Replay 2" }).click();
    await page.getByText("Replayed 2 jobs.").waitFor();
    for (const id of failedIds.slice(1)) await waitFor(async () => (await jobRow(database.db, id)).status === "succeeded", 20_000);
    await page.getByText("No failed, refused or abandoned jobs.").waitFor({ timeout: 20_000 });
    await shot(page, "jobs-replayed");
    const audit = await database.db.selectFrom("audit_log").select(["action", "actor_user_id"]).where("action", "in", ["job.retry", "job.replay"]).execute();
    expect(audit.map((a) => [a.action, a.actor_user_id]).sort()).toEqual([["job.replay", admin.userId], ["job.retry", admin.userId]]);
    await page.close();
  });

  it("a signed-in non-admin is refused in words, cannot act, and signs out", async () => {
    const page = await freshPage();
    const member = await seedAccount(database.db);
    await page.goto(`${srv.url}/admin/jobs`);
    await signIn(page, member);
    await page.waitForURL(`${srv.url}/admin/jobs`);
    expect(await page.locator("body").innerText()).toContain("Platform administrator access is required.");
    expect(await page.locator("body").innerText()).toContain("platform_admin_required");
    await shot(page, "refused");
    // The same browser cannot use the operators' API either (same-origin fetch with its cookie).
    const status = await page.evaluate(async (id) => (await fetch(`/api/v1/admin/jobs/${id}/retry`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status, failedIds[0]);
    expect(status).toBe(403);
    await page.click("#sign-out");
    await page.waitForURL(/\/admin\/sign-in\?signed_out=1/);
    await page.getByText("You are signed out.").waitFor();
    await page.goto(`${srv.url}/admin/jobs`);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    await page.close();
  });
});

/**
 * The interactive API reference at GET /api/reference in a real headless
 * Chromium (playwright-core + Debian's chromium): its sidebar lists every operation
 * of the catalog from GET /api/openapi.json and scrolling the page renders each
 * one (Scalar renders the sections progressively, as they come into view), its
 * API client sends a request same-origin, every request it makes stays on the
 * server's origin (the bundle comes from node_modules through this server, no
 * CDN, no font host), and it runs under its Content-Security-Policy with no
 * console error and no violation. The policy is enforced (a cross-origin fetch
 * from the page is blocked and reported), and the assets carry their content
 * types and cache headers. A screenshot is kept under test/artifacts/.
 */
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { openApiDocument } from "../../api/openapi";
import { REFERENCE_CSP, REFERENCE_PATH, scalarBundle } from "../../api/routes/reference";
import { CATALOG } from "../../ops/catalog";
import { testContext } from "../support/app";
import { describeInChromium, launchChromium } from "../support/chromium";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";

const ARTIFACTS = path.resolve("test/artifacts");

/** Every operation the catalog mounts over HTTP, as the document names it: its operationId and title. */
function catalogOperations(): Array<{ operationId: string; title: string }> {
  const doc = openApiDocument(CATALOG) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
  return Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod).map((o) => ({ operationId: o.operationId, title: o.summary })));
}

/**
 * The one violation the bundle causes by design: zod's capability probe (`new Function("")` in a
 * try/catch, to choose its JIT parser) is refused by script-src, caught, and zod parses without
 * JIT. Allowed only as an eval attempt made by the bundle itself; any other violation fails.
 */
function isZodEvalProbe(v: string, origin: string): boolean {
  return v.startsWith(`script-src blocked eval at ${origin}${scalarBundle().url}:`);
}

interface Watched {
  requests: string[];
  consoleErrors: string[];
  violations: string[];
}

/** A page whose requests, console errors, uncaught errors and CSP violation events are recorded from the first byte. */
async function watchedPage(browser: BrowserContext): Promise<{ page: Page; seen: Watched }> {
  const page = await browser.newPage();
  const seen: Watched = { requests: [], consoleErrors: [], violations: [] };
  page.on("request", (r) => seen.requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") seen.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => seen.consoleErrors.push(`uncaught: ${e.message}`));
  await page.exposeFunction("__cspViolation", (v: string) => seen.violations.push(v));
  // Runs in the page before its own scripts (the test's code is not subject to the page's policy).
  await page.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) =>
      window.__cspViolation(e.effectiveDirective + " blocked " + e.blockedURI + " at " + e.sourceFile + ":" + e.lineNumber + ":" + e.columnNumber));`,
  });
  return { page, seen };
}

describeInChromium("the API reference page in headless Chromium", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let browser: BrowserContext;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContext(database.db)));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.close();
    await database?.close();
  });

  it("lists every operation of the catalog, with no request off the origin, no console error and no CSP violation", async () => {
    const expected = catalogOperations();
    expect(expected.length).toBe(CATALOG.reduce((n, op) => n + (op.http?.length ?? 0), 0));
    // A route's own title (a binding's `title`) stands for the operation's where the two routes differ.
    expect(new Set(expected.map((o) => o.title))).toEqual(new Set(CATALOG.flatMap((op) => (op.http ?? []).map((b) => b.title ?? op.title))));
    const { page, seen } = await watchedPage(browser);
    const res = await page.goto(`${srv.url}${REFERENCE_PATH}`);
    expect(res?.status()).toBe(200);
    // Rendered: the document's title and the first operation's title are on the page.
    await page.getByRole("heading", { name: "CodeSynapse execution platform" }).waitFor({ timeout: 30_000 });
    await page.getByText(expected[0]!.title).first().waitFor({ timeout: 30_000 });
    // The sidebar names every operation, in one link each, from the start.
    const sidebar = page.getByRole("complementary", { name: /^Sidebar for / });
    const sidebarMissing = async () => {
      const text = await sidebar.innerText();
      return expected.filter((o) => !text.includes(o.title));
    };
    await expect.poll(sidebarMissing, { timeout: 30_000 }).toEqual([]);
    // The page renders an operation's section (title and operationId) as it scrolls into view and keeps it:
    // scroll a screen at a time, as a reader would, until every operation has been rendered.
    const missingAfterScroll = async () => {
      await page.evaluate("window.scrollBy(0, window.innerHeight)");
      const text = await page.getByRole("main").innerText();
      return expected.filter((o) => !text.includes(o.title) || !text.includes(o.operationId));
    };
    await expect.poll(missingAfterScroll, { timeout: 90_000, interval: 250 }).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, "api-reference.png") });

    const origin = new URL(srv.url).origin;
    expect(seen.requests.length).toBeGreaterThan(0);
    expect(seen.requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(seen.requests).toContain(`${origin}/api/openapi.json`);
    expect(seen.requests).toContain(`${origin}${scalarBundle().url}`);
    expect(seen.consoleErrors).toEqual([]);
    expect(seen.violations.filter((v) => !isZodEvalProbe(v, new URL(srv.url).origin))).toEqual([]);
    await page.close();
  }, 150_000);

  it("sends a request from its API client to this server, same-origin, and shows the answer", async () => {
    const a = await seedAccount(database.db);
    const thread = uniq("thread");
    expect((await call(srv.url, "POST", "/api/v1/execution/sessions", { headers: bearer(a.apiKey), body: { session_id: thread } })).status).toBe(201);
    const { page, seen } = await watchedPage(browser);
    await page.goto(`${srv.url}${REFERENCE_PATH}`);
    await page.getByRole("heading", { name: "CodeSynapse execution platform" }).waitFor({ timeout: 30_000 });
    // execution.identity ("Who am I"): go to it from the sidebar (which renders its section) and open it in the built-in client.
    await page.getByRole("complementary", { name: /^Sidebar for / }).getByRole("link", { name: /^Who am I\b/ }).click();
    await page.getByRole("button", { name: /^Test Request\W*get \/api\/v1\/execution\/identity\b/i }).click();
    const dialog = page.getByRole("dialog", { name: "API Client" });
    await dialog.waitFor();
    // The operation's security scheme is folded away until opened: open it and type the key.
    const auth = dialog.getByRole("button", { name: /^Authentication Required/ });
    if ((await auth.getAttribute("aria-expanded")) !== "true") await auth.click();
    await dialog.getByRole("textbox", { name: "Bearer Token" }).fill(a.apiKey);
    // The client commits an edit after a pause: its code snippet shows each header once it has it.
    await dialog.getByRole("button", { name: /^Code Snippet/ }).click();
    for (const header of ["X-Codesynapse-Session", "X-Codesynapse-Parent-Session"]) {
      // The header's row, as the client lists it (the operation declares both as required), and its value editor.
      const row = dialog.getByRole("row", { name: new RegExp(`^Include ${header} in request\\b`) });
      await row.getByRole("combobox", { name: "Value" }).click();
      await page.keyboard.type(thread);
      await dialog.getByText(`${header}: ${thread}`).first().waitFor({ timeout: 10_000 });
    }
    const [req] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/v1/execution/identity")),
      dialog.getByRole("button", { name: /^Send Request\b/ }).click(),
    ]);
    expect(new URL(req.url()).origin).toBe(new URL(srv.url).origin);
    expect(req.headers()["authorization"]).toBe(`Bearer ${a.apiKey}`);
    expect(req.headers()["x-codesynapse-session"]).toBe(thread);
    expect((await req.response())?.status()).toBe(200);
    // The answer, the identity this key and thread resolve to, is shown in the client.
    await dialog.getByText(`"session_id": "${thread}"`).waitFor({ timeout: 15_000 });
    await dialog.getByText(`"tenant_id": "${a.orgId}"`).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "api-reference-client.png") });
    // The key the reader typed stays in the page's memory: no web storage holds it, no IndexedDB exists.
    expect(await page.evaluate("JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")).not.toContain(a.apiKey);
    expect(await page.evaluate("indexedDB.databases().then((d) => d.length)")).toBe(0);
    expect(seen.requests.filter((u) => new URL(u).origin !== new URL(srv.url).origin)).toEqual([]);
    expect(seen.consoleErrors).toEqual([]);
    expect(seen.violations.filter((v) => !isZodEvalProbe(v, new URL(srv.url).origin))).toEqual([]);
    await page.close();
  }, 60_000);

  it("enforces its policy: a fetch to another origin is blocked and reported", async () => {
    const { page, seen } = await watchedPage(browser);
    await page.goto(`${srv.url}${REFERENCE_PATH}`);
    await page.getByRole("heading", { name: "CodeSynapse execution platform" }).waitFor({ timeout: 30_000 });
    // Another origin of this very server (localhost vs 127.0.0.1): reachable, so only the policy can stop it.
    const other = srv.url.replace("127.0.0.1", "localhost");
    const outcome = await page.evaluate(async (u) => fetch(`${u}/api/openapi.json`).then(() => "fetched", () => "blocked"), other);
    expect(outcome).toBe("blocked");
    await expect.poll(() => seen.violations).toContainEqual(expect.stringMatching(/^connect-src blocked http:\/\/localhost:/));
    await page.close();
  }, 60_000);

  it("serves the page and the bundle with their content types and cache headers, to anyone", async () => {
    const html = await call(srv.url, "GET", REFERENCE_PATH);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("content-security-policy")).toBe(REFERENCE_CSP);
    expect(html.headers.get("cache-control")).toBe("no-cache");
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
    // No inline script (the policy's script-src is 'self' alone): every <script> has a src or is empty.
    const scripts = [...html.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter(([, attrs, body]) => !/\bsrc=/.test(attrs!) && body!.trim() !== "")).toEqual([]);
    expect(REFERENCE_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|\*/);

    const bundle = scalarBundle();
    expect(html.text).toContain(`src="${bundle.url}"`);
    const js = await fetch(`${srv.url}${bundle.url}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^(text|application)\/javascript; charset=utf-8$/i);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
    const body = Buffer.from(await js.arrayBuffer());
    expect(body.length).toBe(statSync(bundle.file).size);
    expect(body.equals(readFileSync(bundle.file))).toBe(true);
    const icon = await call(srv.url, "GET", `${REFERENCE_PATH}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get("cache-control")).toBe("public, max-age=86400");
    // The URL names the installed version: another version's URL is not served.
    expect((await call(srv.url, "GET", `${REFERENCE_PATH}/scalar-0.0.0.js`)).status).toBe(404);

    // The document the page renders is public too, as before.
    const doc = await call(srv.url, "GET", "/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toMatch(/^application\/json/);
    expect(doc.body.openapi).toBe("3.1.0");
  });
});

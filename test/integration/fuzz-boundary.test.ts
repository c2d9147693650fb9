/**
 * The input boundary (HTTP-6, core/boundary.ts) under fuzzing, on the embedded
 * default (PGlite): the real app with memory, job kinds and cleaners wired as
 * the composition root wires them, a real user with an API key and a
 * registered session. fast-check generates malformed bodies (wrong types,
 * huge strings, NUL, lone surrogates, control characters, deep nesting,
 * arrays for objects), malformed path parameters and malformed header values
 * against EVERY route of the Express router (enumerated from its stack) and
 * every MCP tool (listed by the SDK client over Streamable HTTP). Nothing may
 * answer 5xx (MCP: no internal error), a refusal never quotes the rejected
 * value (response or logs), and the server answers /healthz and /readyz after.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { pino } from "pino";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Express } from "express";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { buildMemoryServices } from "../../main/memory";
import { isSafeText } from "../../core/boundary";
import { systemClock } from "../../core/clock";
import { uploadsCleaner } from "../../core/ingest/uploads";
import { memoryCleaner } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import { JobMetrics } from "../../queues/metrics";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import type { JobHandler } from "../../workers/handler";
import { cleanupHandler } from "../../workers/pools/cleanup";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { identityStore } from "../../db/sql/identity/store";
import { fixtureTar } from "../support/archives";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { call, listen, registerThread, type JsonResponse, type TestServer } from "../support/http";

const SEED = Number(process.env.FUZZ_SEED ?? 20261203);
/** Runs per route (bodies, path parameters), for the header pass, and per MCP tool. */
const RUNS = { body: 60, params: 24, headers: 400, tool: 60 };

interface RouteDef {
  method: string;
  path: string;
}

/** Every route of the app, read from the Express router's stack (routers are mounted at the root). */
function enumerateRoutes(app: Express): RouteDef[] {
  const out: RouteDef[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const m of Object.keys(layer.route.methods)) out.push({ method: m === "_all" ? "PATCH" : m.toUpperCase(), path: layer.route.path });
      } else if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: any[] } }).router.stack);
  return out;
}

// ---- generators -------------------------------------------------------------

const nasty = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "\uDBFF\u0041",
  "\u0001\u0002\u001F",
  "\u007F",
  "\u0085\u009F",
  "\u001B[31mred",
  "line\r\nbreak",
  "tab\there",
  "\uFEFF",
  "\u202Eevil",
  "'; drop table jobs; --",
  "../../etc/passwd",
  "%00",
  "${jndi:x}",
  "𝒳😀",
  "",
  " ",
);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const evilString = fc.oneof(
  nasty,
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 12 }), nasty, fc.string({ maxLength: 12 })).map(([a, b, c]) => `${a}${b}${c}`),
  fc.tuple(nasty, fc.integer({ min: 200, max: 70_000 })).map(([s, n]) => `z${s}`.repeat(Math.ceil(n / (s.length + 1))).slice(0, n)),
);
const deep = fc.integer({ min: 20, max: 3000 }).map((n) => {
  let v: unknown = "\u0000";
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
});
const evilValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: evilString },
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, [], {}, [[]], { length: 1 }),
  fc.array(evilString, { maxLength: 5 }),
  fc.dictionary(evilString, evilString, { maxKeys: 4 }),
  deep,
  fc.jsonValue({ maxDepth: 4 }),
);

/** Replaces one leaf (or the whole) of a template with an evil value. */
function mutate(template: unknown, pick: number, value: unknown): unknown {
  const leaves: Array<Array<string | number>> = [[]];
  const visit = (v: unknown, p: Array<string | number>) => {
    if (v && typeof v === "object") {
      for (const [k, c] of Object.entries(v)) {
        const q = [...p, Array.isArray(v) ? Number(k) : k];
        leaves.push(q);
        visit(c, q);
      }
    }
  };
  visit(template, []);
  const at = leaves[pick % leaves.length]!;
  if (at.length === 0) return value;
  const copy = structuredClone(template) as Record<string | number, unknown>;
  let o = copy;
  for (const k of at.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[at.at(-1)!] = value;
  return copy;
}

/** Strings of a request a refusal must not quote: those the boundary rule refuses, long enough to be recognised. */
function rejectedStrings(...values: unknown[]): string[] {
  const out: string[] = [];
  const stack = [...values];
  while (stack.length > 0 && out.length < 50) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.length >= 8 && !isSafeText(v)) out.push(v);
    } else if (v && typeof v === "object") {
      for (const [k, c] of Object.entries(v)) stack.push(k, c);
    }
  }
  return out;
}

function quoted(text: string, s: string): boolean {
  const json = JSON.stringify(s).slice(1, -1);
  const probe = (x: string) => x.length >= 8 && text.includes(x.slice(0, 64));
  return probe(s) || probe(json);
}

// ---- raw HTTP for header bytes no client library will send -------------------

function rawRequest(base: string, head: Buffer): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    let data = "";
    sock.setTimeout(15_000, () => sock.destroy(new Error("raw request timed out")));
    sock.on("data", (d) => {
      data += d.toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        resolve(Number(m[1]));
        sock.destroy();
      }
    });
    sock.on("error", reject);
    sock.on("close", () => {
      if (!/^HTTP\/1\.1 \d{3}/.test(data)) reject(new Error("connection closed without a response"));
    });
    sock.write(head);
  });
}

// ---- the suite ----------------------------------------------------------------

describe("the input boundary under fuzzing [pglite]", () => {
  let database: TestDatabase;
  let ctx: AppContext;
  let app: Express;
  let srv: TestServer;
  let root: string;
  let account: Account;
  let thread: { session: string; headers: Record<string, string> };
  let jobId: string;
  let uploadId: string;
  let cookie: string;
  let logs = "";
  const tally = { requests: 0, failures: [] as string[], leaks: [] as string[], rejected: [] as string[], classes: new Map<string, number>() };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-fuzz-"));
    database = await openTestDatabase("pglite");
    const logger = pino({ level: "info" }, { write: (s: string) => void (logs += s) });
    ctx = testContext(database.db, { clock: systemClock, logger, env: { INGEST_ALLOWED_ROOTS: root, INGEST_GIT_ALLOWED: "https://example.test" } });
    ctx.memory = buildMemoryServices(ctx.config, database.db, systemClock, logger);
    const cleaners = new SessionCleaners();
    cleaners.register(memoryCleaner(ctx.memory, systemClock));
    cleaners.register(uploadsCleaner(ctx.stores.uploads));
    const registry = new JobRegistry<JobHandler>().register(cleanupHandler(cleaners, ctx.stores));
    const { queue } = createJobQueue({ db: database.db, identity: identityStore, clock: systemClock, logger, registry });
    for (const h of jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory: ctx.memory, queue: () => queue })) registry.register(h);
    ctx.jobs = queue;
    ctx.cleaners = cleaners;
    ctx.jobMetrics = new JobMetrics({ db: database.db });
    app = createApp(ctx);
    srv = await listen(app);
    account = await seedAccount(database.db, { repoLevel: "write" });
    thread = await registerThread(srv.url, account.apiKey);
    const job = await call(srv.url, "POST", `/api/v1/repos/${account.repoId}/ai-tasks`, { headers: thread.headers, body: { task: "summary" } });
    expect(job.status).toBe(202);
    jobId = job.body.job_id;
    const up = await call(srv.url, "POST", `/api/v1/repos/${account.repoId}/uploads`, { headers: thread.headers, rawBody: await fixtureTar({ "a.ts": "export const a = 1;\n" }) });
    expect(up.status).toBe(201);
    uploadId = up.body.upload_id;
    const login = await call(srv.url, "POST", "/api/v1/auth/login", { body: { email: account.email, password: account.password } });
    expect(login.status).toBe(200);
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  });
  afterAll(async () => {
    await srv?.close();
    ctx?.memory?.close();
    await database?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  function record(label: string, status: number, text: string, sent: unknown[]): void {
    tally.requests++;
    const cls = `${Math.floor(status / 100)}xx`;
    tally.classes.set(cls, (tally.classes.get(cls) ?? 0) + 1);
    if (status >= 500) tally.failures.push(`${label} → ${status} ${text.slice(0, 200)}`);
    if (status >= 400) {
      for (const s of rejectedStrings(...sent)) {
        tally.rejected.push(s);
        if (quoted(text, s)) tally.leaks.push(`${label} → ${status} quotes ${JSON.stringify(s.slice(0, 40))}`);
      }
    }
  }

  async function send(label: string, method: string, url: string, opts: Parameters<typeof call>[3], sent: unknown[]): Promise<JsonResponse | undefined> {
    let r: JsonResponse;
    try {
      r = await call(srv.url, method, url, opts);
    } catch (err) {
      // fetch refuses to build some requests (a body on GET): not a server answer. A failed connection is.
      if (err instanceof TypeError && err.message !== "fetch failed") return undefined;
      throw err;
    }
    record(label, r.status, r.text, sent);
    return r;
  }

  /** A valid body for the routes that take one: the fuzzer mutates it, so refusals come from every layer. */
  function template(route: RouteDef): unknown {
    const p = route.path;
    if (p.endsWith("/auth/login")) return { email: account.email, password: account.password };
    if (p === "/api/v1/execution/sessions") return { session_id: uniq("fz") };
    if (p.endsWith("/session-memory") || p.endsWith("/memory/triples")) {
      return { triples: [{ subject: "Auth", predicate: "uses", object: "Token", subject_type: "class", object_type: "class" }], source: "a.ts" };
    }
    if (p.endsWith("/recall")) return { query: "auth token", limit: 5 };
    if (p.endsWith("/offload")) return { turns: [{ role: "user", content: "Auth uses Token" }] };
    if (p.endsWith("/promote")) return { fact_ids: ["sf_0123456789abcdef"] };
    if (p.endsWith("/memory/index") || p.endsWith("/embeddings/refresh")) return { batch: 1 };
    if (p.endsWith("/ingest")) return { upload_id: uploadId };
    if (p.endsWith("/ai-tasks")) return { task: "question", question: "What uses Token?" };
    if (p.endsWith("/fix-jobs")) return { problem: "Token expires early", files: ["a.ts"] };
    if (p === "/mcp") return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_identity", arguments: {} } };
    return {};
  }

  /** A valid value for each path parameter. */
  function validParam(route: RouteDef, name: string): string {
    if (name === "repo") return account.repoId;
    if (route.path.includes("/jobs/")) return jobId;
    if (route.path.includes("/uploads/")) return uploadId;
    return uniq("unregistered"); // DELETE /execution/sessions/:id: never the live thread
  }

  const paramNames = (p: string) => [...p.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const fill = (route: RouteDef, values: Record<string, string>) => route.path.replace(/:(\w+)/g, (_m, n: string) => encodeURIComponent(values[n] ?? validParam(route, n)));

  it("the reported instances: NUL and broken UTF-8 in path parameters, bodies, headers and tool arguments are 400 validation_failed, unquoted", async () => {
    const h = thread.headers;
    const paths: Array<[string, string, Record<string, string>]> = [
      ["DELETE", "/api/v1/execution/sessions/evil%00id", { authorization: `Bearer ${account.apiKey}` }],
      ["GET", "/api/v1/jobs/job_%00", h],
      ["POST", "/api/v1/jobs/evil%00id/cancel", h],
      ["GET", "/api/v1/repos/evil%00repo/session-memory", h],
      ["POST", "/api/v1/repos/evil%00repo/ingest", h],
      ["POST", "/api/v1/repos/evil%ED%A0%80repo/memory/recall", h],
      ["DELETE", `/api/v1/repos/${account.repoId}/uploads/evil%E0%A4%A`, h],
    ];
    for (const [method, url, headers] of paths) {
      const r = await call(srv.url, method, url, { headers, ...(method === "GET" ? {} : { body: { query: "x", upload_id: uploadId } }) });
      expect([r.status, r.body?.error?.code], `${method} ${url}`).toEqual([400, "validation_failed"]);
      expect(r.text).not.toMatch(/evil/);
    }
    const bodies: Array<[string, unknown, string]> = [
      [`/api/v1/repos/${account.repoId}/session-memory`, { triples: [{ subject: "evil\u0000subject", predicate: "uses", object: "x" }] }, "triples.0.subject"],
      [`/api/v1/repos/${account.repoId}/ai-tasks`, { task: "question", question: "evil\u0000question" }, "question"],
      [`/api/v1/repos/${account.repoId}/session-memory/offload`, { turns: [{ role: "user", content: "evil\uD800turn" }] }, "turns.0.content"],
      [`/api/v1/repos/${account.repoId}/memory/triples`, { triples: [{ subject: "evil\u0085name", predicate: "uses", object: "x" }] }, "triples.0.subject"],
    ];
    for (const [url, body, field] of bodies) {
      const r = await call(srv.url, "POST", url, { headers: h, body });
      expect([r.status, r.body?.error?.code], url).toEqual([400, "validation_failed"]);
      expect(r.body.error.details.problems.map((p: { path: string }) => p.path)).toContain(field);
      expect(r.text).not.toMatch(/evil/);
    }
    // A C1 control arrives in a header as latin-1: the execution headers refuse it (Node refuses C0 bytes itself).
    const raw = (value: string) =>
      Buffer.concat([
        Buffer.from(`GET /api/v1/execution/identity HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${account.apiKey}\r\nconnection: close\r\n`),
        Buffer.from(`x-codesynapse-session: ${value}\r\nx-codesynapse-parent-session: ${value}\r\n\r\n`, "latin1"),
      ]);
    expect(await rawRequest(srv.url, raw(`${thread.session}\u0085`))).toBe(400);
    expect(await rawRequest(srv.url, raw(`${thread.session}\u0000`))).toBe(400);

    const client = new Client({ name: "fuzz-cases", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: h } }));
    try {
      for (const [name, args] of [
        ["get_job", { job_id: "job_evil\u0000" }],
        ["recall_context", { repo: "evil\u0000repo", query: "x" }],
        ["upsert_session_facts", { repo: account.repoId, triples: [{ subject: "evil\u0000s", predicate: "uses", object: "x" }] }],
        ["submit_ai_task", { repo: account.repoId, task: "question", question: "evil\uDC00q" }],
      ] as const) {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        const text = JSON.stringify(r.content);
        expect(text, name).not.toMatch(/internal/i);
        expect(text, name).not.toMatch(/evil/);
      }
    } finally {
      await client.close();
    }
  });

  it("every route and every MCP tool refuse malformed input with a 4xx, never a 5xx, and quote nothing refused", async () => {
    const started = Date.now();
    const routes = enumerateRoutes(app);
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const headers = (r: RouteDef) => (r.path === "/mcp" ? { ...thread.headers, accept: "application/json, text/event-stream" } : thread.headers);

    // 1. Bodies (and query strings): mutated templates and junk, on every route.
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const base = template(route);
      await fc.assert(
        fc.asyncProperty(fc.nat(), evilValue, fc.constantFrom("json", "json", "query", "raw"), async (pick, value, how) => {
          const url = fill(route, {});
          if (how === "query") {
            const v = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
            const q = new URLSearchParams({ q: v, limit: v, status: v, before: v });
            await send(label, route.method, `${url}?${q}`, { headers: headers(route) }, [value]);
            return;
          }
          if (how === "raw") {
            const raw = typeof value === "string" ? `{"x": "${value}"` : JSON.stringify(value)?.slice(0, -1) ?? "{";
            await send(label, route.method, url, { headers: headers(route), rawBody: raw }, []);
            return;
          }
          const body = route.method === "GET" ? undefined : mutate(base, pick, value);
          await send(label, route.method, url, { headers: headers(route), ...(body === undefined ? {} : { body }) }, [body]);
        }),
        { numRuns: route.path.endsWith("/auth/login") ? 12 : RUNS.body, seed: SEED },
      );
    }

    // 2. Path parameters: NUL, surrogates (as broken UTF-8), controls, huge, bad percent-encoding.
    const rawSegment = fc.oneof(
      evilString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x"))),
      fc.constantFrom("%00", "%ED%A0%80", "%C0%AF", "%E0%A4%A", "%", "%zz", "%FF", "%0A", "%1B", "%C2%85", "..", "%2e%2e", "%2F", "a%00b"),
      fc.integer({ min: 129, max: 9000 }).map((n) => "r".repeat(n)),
    );
    for (const route of routes.filter((r) => r.path.includes(":"))) {
      const label = `${route.method} ${route.path} (params)`;
      const names = paramNames(route.path);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), rawSegment, async (name, seg) => {
          const url = route.path.replace(/:(\w+)/g, (_m, n: string) => (n === name ? seg : encodeURIComponent(validParam(route, n))));
          const body = route.method === "GET" ? undefined : template(route);
          let decoded: string;
          try {
            decoded = decodeURIComponent(seg);
          } catch {
            decoded = seg;
          }
          await send(label, route.method, url, { headers: headers(route), ...(body === undefined ? {} : { body }) }, [decoded]);
        }),
        { numRuns: RUNS.params, seed: SEED },
      );
    }

    // 3. Header values as raw bytes (NUL, C0, C1 as latin-1, long), on every route: execution, org, credential, MCP, content headers,
    //    as the API-key caller and as the signed-in browser.
    const headerNames = ["x-codesynapse-session", "x-codesynapse-parent-session", "x-codesynapse-org", "authorization", "cookie", "mcp-session-id", "content-type", "accept"];
    const headerBytes = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b.map((x) => (x === 10 || x === 13 ? 0 : x)))),
      fc.constantFrom("\u0000", "a\u0000b", "\u0001", "\u0085", "\u009f", "\u00ff", "Bearer \u0000", "cs_session=%00", "cs_session=%ED%A0%80", "x".repeat(8000)).map((s) => Buffer.from(s, "latin1")),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom(...headerNames), headerBytes, fc.boolean(), fc.boolean(), async (route, name, value, mirror, browser) => {
        const url = fill(route, {});
        const h: Record<string, string | Buffer> = { ...headers(route), connection: "close" };
        // Half the time as the signed-in browser, so the cookie and X-CodeSynapse-Org are what authenticates.
        if (browser) {
          delete h.authorization;
          h.cookie = cookie;
          h["sec-fetch-site"] = "same-origin"; // past the CSRF guard (api/csrf.ts), so the fuzzed header is what is judged
        }
        h[name] = value;
        // The parent header mirrors the session one, so a malformed pair reaches the ID check, not the mismatch check.
        if (mirror && name === "x-codesynapse-session") h["x-codesynapse-parent-session"] = value;
        const body = route.method === "GET" ? "" : JSON.stringify(template(route));
        if (body) {
          h["content-type"] ??= "application/json";
          h["content-length"] = String(Buffer.byteLength(body));
        }
        const lines: Buffer[] = [Buffer.from(`${route.method} ${url} HTTP/1.1\r\nhost: 127.0.0.1\r\n`)];
        for (const [k, v] of Object.entries(h)) lines.push(Buffer.from(`${k}: `), Buffer.isBuffer(v) ? v : Buffer.from(v), Buffer.from("\r\n"));
        lines.push(Buffer.from(`\r\n${body}`));
        const status = await rawRequest(srv.url, Buffer.concat(lines));
        record(`${route.method} ${route.path} (header ${name})`, status, "", []);
      }),
      { numRuns: RUNS.headers, seed: SEED },
    );

    // 4. Every MCP tool, through the SDK client on the registered session.
    const client = new Client({ name: "fuzz", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: thread.headers } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(12);
      const toolValid: Record<string, unknown> = {
        repo: account.repoId,
        query: "auth token",
        triples: [{ subject: "Auth", predicate: "uses", object: "Token" }],
        source: "a.ts",
        turns: [{ role: "user", content: "Auth uses Token" }],
        fact_ids: ["sf_0123456789abcdef"],
        job_id: jobId,
        node_id: "n_0123",
        upload_id: uploadId,
        task: "question",
        question: "What uses Token?",
        memory_scope: "repository",
        limit: 3,
        depth: 1,
        q: "auth",
      };
      for (const tool of tools) {
        const props = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
        const base = Object.fromEntries(props.filter((p) => p in toolValid && p !== "path" && p !== "git_url").map((p) => [p, toolValid[p]]));
        await fc.assert(
          fc.asyncProperty(fc.nat(), evilValue, fc.option(fc.constantFrom(...props, "extra"), { nil: undefined }), async (pick, value, key) => {
            const args = key === undefined ? (mutate(base, pick, value) as Record<string, unknown>) : { ...base, [key]: value };
            const sent = [args];
            tally.requests++;
            tally.classes.set("tool", (tally.classes.get("tool") ?? 0) + 1);
            try {
              const r = await client.callTool({ name: tool.name, arguments: args && typeof args === "object" && !Array.isArray(args) ? args : { value: args } });
              const text = JSON.stringify(r.content ?? "");
              const code = (r.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
              if (r.isError && (code === "internal" || /-32603|internal error/i.test(text))) tally.failures.push(`tool ${tool.name} → internal ${text.slice(0, 200)}`);
              if (r.isError) for (const s of rejectedStrings(...sent)) if (quoted(text, s)) tally.leaks.push(`tool ${tool.name} quotes ${JSON.stringify(s.slice(0, 40))}`);
            } catch (err) {
              const code = (err as { code?: unknown }).code;
              if (code === -32603 || (typeof code === "number" && code >= 500)) tally.failures.push(`tool ${tool.name} → ${String(code)} ${String(err).slice(0, 200)}`);
            }
          }),
          { numRuns: RUNS.tool, seed: SEED },
        );
      }
    } finally {
      await client.close();
    }

    // 5. Still alive, and nothing refused reached the logs.
    expect((await call(srv.url, "GET", "/healthz")).status).toBe(200);
    expect((await call(srv.url, "GET", "/readyz")).status).toBe(200);
    expect((await call(srv.url, "GET", "/api/v1/execution/identity", { headers: thread.headers })).status).toBe(200);
    for (const s of tally.rejected.slice(0, 2000)) if (quoted(logs, s)) tally.leaks.push(`logs quote ${JSON.stringify(s.slice(0, 40))}`);

    console.log(`[fuzz] seed ${SEED}: ${tally.requests} requests over ${routes.length} routes and the MCP tools, ${tally.failures.length} 5xx, ${tally.leaks.length} quoted, ${Math.round((Date.now() - started) / 1000)} s ${JSON.stringify(Object.fromEntries(tally.classes))}`);
    if (tally.failures.length > 0) {
      const by = new Map<string, number>();
      for (const f of tally.failures) by.set(f.split(" → ")[0]!, (by.get(f.split(" → ")[0]!) ?? 0) + 1);
      console.log(`[fuzz] 5xx by route: ${JSON.stringify(Object.fromEntries(by))}`);
    }
    expect(tally.failures.slice(0, 20)).toEqual([]);
    expect(tally.leaks.slice(0, 20)).toEqual([]);
    expect(logs).not.toContain("request failed");
  }, 180_000);
});

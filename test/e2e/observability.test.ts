/**
 * Observability of the real processes (docs/observability.md): `codesynapse serve` and
 * `codesynapse worker --pools ingest,embedding` spawned through bin/codesynapse.js on a fresh
 * PostgreSQL database and a private Redis (BullMQ dispatch), tracing on with the OTLP/HTTP JSON
 * exporter pointed at an in-memory receiver in this test.
 *
 * - one trace: the HTTP request's span → (the job row's traceparent) → the worker's job span →
 *   its pg calls, and the API's ioredis dispatch inside the request; tenant and job ids on the
 *   spans, and no session id, API key or cookie anywhere in what was exported;
 * - request logs: route template, status, duration and request id; no credential in the output;
 * - metrics: the API's and the worker's /metrics (on METRICS_PORT) pass `promtool check metrics`;
 *   the Grafana dashboard names only metrics these processes expose.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../../db/database";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount, type Account } from "../support/fixtures";
import { call, registerThread } from "../support/http";
import { waitFor } from "../support/jobs";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { cleanEnv, startServer, type Started } from "../support/process";
import { freePort, startPrivateRedis, type PrivateRedis } from "../support/private-redis";
import { describeWithService, probeService, REQUIRE_SERVICES, serviceUrl } from "../support/services";

const postgres = await probeService("postgres");
const PROMTOOL = process.env.PROMTOOL ?? "promtool";

function promtoolAvailable(): boolean {
  try {
    execFileSync(PROMTOOL, ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/** `promtool check metrics` on a scrape: its exit code and what it printed. */
function promtool(text: string): { code: number; output: string } {
  try {
    const out = execFileSync(PROMTOOL, ["check", "metrics"], { input: text, stdio: "pipe" });
    return { code: 0, output: out.toString() };
  } catch (err) {
    const e = err as { status: number; stdout: Buffer; stderr: Buffer };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describeWithService(postgres, "observability of the real processes", () => {
  const dbName = `cs_obs_${randomBytes(6).toString("hex")}`;
  let adminUrl: string;
  let database: OpenDatabase;
  let redis: PrivateRedis;
  let receiver: OtlpReceiver;
  let root: string;
  let api: Started;
  let worker: Started;
  let workerMetricsUrl: string;
  let a: Account;
  let session: string;
  let headers: Record<string, string>;
  let jobId: string;
  const cookie = `cs_session=${randomBytes(24).toString("hex")}; theme=${randomBytes(8).toString("hex")}`;
  const requestId = `req-obs-${randomBytes(6).toString("hex")}`;
  const prompt = `where-is-the-token-check-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    adminUrl = serviceUrl("postgres")!;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    database = await openDatabase({ url: u.toString() });
    await migrateToLatest(database.db);
    a = await seedAccount(database.db);
    root = await mkdtemp(path.join(tmpdir(), "cs-obs-"));
    await writeFixtureRepo(path.join(root, "repo"));
    redis = await startPrivateRedis();
    receiver = await startOtlpReceiver();
    const env = cleanEnv({
      DATABASE_URL: u.toString(),
      REDIS_URL: redis.url,
      INGEST_ALLOWED_ROOTS: root,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      LOG_LEVEL: "info",
    });
    [api, worker] = await Promise.all([
      startServer(["serve"], env),
      startServer(["worker", "--pools", "ingest,embedding"], { ...env, METRICS_PORT: String(await freePort()) }),
    ]);
    workerMetricsUrl = worker.url;
    ({ session, headers } = await registerThread(api.url, a.apiKey));
    const r = await call(api.url, "POST", `/api/v1/repos/${a.repoName}/ingest`, {
      headers: { ...headers, cookie, "x-request-id": requestId },
      body: { path: path.join(root, "repo") },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.headers.get("x-request-id")).toBe(requestId);
    jobId = r.body.job_id;
    // A read whose query string carries the session id and prompt-like text: the raw URL must not reach a span or a log.
    const q = await call(api.url, "GET", `/api/v1/repos/${a.repoName}/session-memory?q=${encodeURIComponent(`${session} ${prompt}`)}`, { headers });
    expect(q.status, q.text).toBe(200);
    await waitFor(async () => {
      const j = await call(api.url, "GET", `/api/v1/jobs/${jobId}`, { headers: { ...headers, cookie } });
      return j.body?.status === "succeeded" ? j : undefined;
    }, 60_000, 200);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await database?.close();
    await redis?.stop();
    await receiver?.close();
    if (root) await rm(root, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  const byId = () => new Map(receiver.spans.map((s) => [s.spanId, s]));
  const ancestors = (s: ReceivedSpan): ReceivedSpan[] => {
    const all = byId();
    const out: ReceivedSpan[] = [];
    for (let p = s.parentSpanId ? all.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? all.get(p.parentSpanId) : undefined) out.push(p);
    return out;
  };

  it("one trace runs from the HTTP request through the job row to the worker's job span and its store calls", async () => {
    const job = await waitFor(async () => receiver.spans.find((s) => s.name === "job ingest.snapshot" && s.attributes["codesynapse.job.id"] === jobId), 20_000, 100);
    const request = await waitFor(
      async () => receiver.spans.find((s) => s.kind === 2 && s.attributes["http.route"] === "/api/v1/repos/:repo/ingest" && s.traceId === job.traceId),
      20_000,
      100,
    );
    // The row holds the W3C traceparent of the span the submission ran in.
    const row = await database.db.selectFrom("jobs").select(["traceparent"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row.traceparent).toMatch(new RegExp(`^00-${job.traceId}-${job.parentSpanId}-01$`));
    // request span → express's handler span → the submission's span → (the row) → the worker's job span.
    const submitter = receiver.spans.find((s) => s.spanId === job.parentSpanId)!;
    expect(submitter.name).toBe("submit ingest.snapshot");
    expect(ancestors(job).map((s) => s.name)).toEqual(["submit ingest.snapshot", "request handler", "POST /api/v1/repos/:repo/ingest"]);
    expect(ancestors(job).at(-1)!.spanId).toBe(request.spanId);
    expect(request.attributes["http.response.status_code"]).toBe(202);
    expect(request.attributes["http.request.method"]).toBe("POST");
    // Tenant and job ids: on the job span, and on the request's handler span that submitted it.
    expect(job.attributes).toMatchObject({ "codesynapse.tenant.id": a.orgId, "codesynapse.job.kind": "ingest.snapshot", "codesynapse.job.pool": "ingest", "codesynapse.job.outcome": "succeeded" });
    expect(submitter.attributes).toMatchObject({ "codesynapse.tenant.id": a.orgId, "codesynapse.job.id": jobId, "codesynapse.job.kind": "ingest.snapshot" });
    // The worker's store calls are children (or deeper) of its job span.
    const workerPg = receiver.spans.filter((s) => s.traceId === job.traceId && s.attributes["db.system.name"] === "postgresql" && ancestors(s).some((p) => p.spanId === job.spanId));
    expect(workerPg.length).toBeGreaterThan(0);
    // The API's BullMQ dispatch went through ioredis inside the request.
    const apiRedis = receiver.spans.filter((s) => s.attributes["db.system.name"] === "redis" && ancestors(s).some((p) => p.spanId === request.spanId));
    expect(apiRedis.length).toBeGreaterThan(0);
    // The embedding refresh the ingest run enqueued continues the same trace, under that run.
    const follow = await waitFor(async () => receiver.spans.find((s) => s.name === "job embedding.refresh" && s.traceId === job.traceId), 20_000, 100);
    expect(ancestors(follow).map((s) => s.name).slice(0, 2)).toEqual(["submit embedding.refresh", "job ingest.snapshot"]);
    expect(receiver.spans.some((s) => s.attributes["db.system.name"] === "postgresql" && ancestors(s).some((p) => p.spanId === follow.spanId))).toBe(true);
  });

  it("no exported span carries a session id, an API key, a cookie, a raw URL or a header", async () => {
    expect(receiver.spans.length).toBeGreaterThan(5);
    const everything = receiver.bodies.join("\n");
    expect(everything).not.toContain(session);
    expect(everything).not.toContain(prompt);
    expect(everything).not.toContain(a.apiKey);
    expect(everything).not.toContain(a.apiKey.slice(4, 16));
    for (const part of cookie.split("; ")) expect(everything).not.toContain(part.split("=")[1]!);
    const keys = new Set(receiver.spans.flatMap((s) => Object.keys(s.attributes)));
    for (const k of keys) expect(k).not.toMatch(/^(url\.(full|path|query)|http\.(target|url)|http\.request\.header|http\.response\.header|user_agent|client\.|network\.peer|enduser)/);
  });

  it("request logs name the route template, status, duration and request id, never a credential", async () => {
    // A caller's X-Request-Id that is its own session id is not taken (one is generated instead).
    const r = await call(api.url, "GET", "/api/v1/execution/identity", { headers: { ...headers, "x-request-id": session } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-request-id")).not.toBe(session);
    await new Promise((res) => setTimeout(res, 300)); // pino writes asynchronously
    const lines = api
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ingest = lines.find((l) => l.msg === "request completed" && l.request_id === requestId)!;
    expect(ingest).toMatchObject({ method: "POST", route: "/api/v1/repos/:repo/ingest", status: 202 });
    expect(typeof ingest.duration_ms).toBe("number");
    const polls = lines.filter((l) => l.msg === "request completed" && l.route === "/api/v1/jobs/:id");
    expect(polls.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.route === "/api/v1/execution/identity" && l.request_id === r.headers.get("x-request-id"))).toBe(true);
    const out = api.output() + worker.output();
    expect(out).not.toContain(session);
    expect(out).not.toContain(prompt);
    expect(out).not.toContain(a.apiKey);
    for (const part of cookie.split("; ")) expect(out).not.toContain(part.split("=")[1]!);
  });

  it("the API's and the worker's /metrics pass promtool; the dashboard uses only metrics they expose", async (t) => {
    if (!promtoolAvailable()) {
      if (REQUIRE_SERVICES) throw new Error(`REQUIRE_SERVICES=1 but promtool (${PROMTOOL}) is not available: run test/services/promtool.sh`);
      t.skip();
    }
    for (let i = 0; i < 5; i++) await call(api.url, "GET", `/no/such/${randomBytes(4).toString("hex")}`);
    const apiText = (await call(api.url, "GET", "/metrics")).text;
    const workerText = await waitFor(async () => {
      const text = (await call(workerMetricsUrl, "GET", "/metrics")).text;
      return /codesynapse_job_outcomes_total\{pool="ingest",kind="ingest.snapshot",outcome="succeeded"\} 1/.test(text) ? text : undefined;
    }, 20_000, 200);
    for (const [who, text] of [["api", apiText], ["worker", workerText]] as const) {
      const check = promtool(text);
      expect(check.output, `${who}: promtool check metrics`).toBe("");
      expect(check.code, `${who}: promtool check metrics`).toBe(0);
      expect(text).toContain("process_resident_memory_bytes");
      expect(text).not.toContain(session);
    }
    expect(apiText).toMatch(/codesynapse_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/repos\/:repo\/ingest",status="202"\} 1/);
    // Every path no route matched is one label value.
    const unmatched = apiText.split("\n").filter((l) => l.startsWith("codesynapse_http_request_duration_seconds_count") && l.includes('route="(unmatched)"'));
    expect(unmatched).toEqual([expect.stringMatching(/status="404"\} 5$/)]);
    expect(apiText).not.toMatch(/route="\/no\//);

    const dashboard = await readFile(path.resolve(import.meta.dirname, "../../deploy/grafana/codesynapse.json"), "utf8");
    const exprs = [...dashboard.matchAll(/"expr":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    expect(exprs.length).toBeGreaterThan(8);
    // Each query parses as PromQL (promtool check rules on them as recording rules, Grafana's variables filled in).
    const rules = `groups:\n  - name: dashboard\n    rules:\n${exprs
      .map((e, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(JSON.parse(`"${e}"`).replaceAll("$__rate_interval", "5m").replaceAll("$job", ".*"))}\n`)
      .join("")}`;
    const rulesFile = path.join(root, "dashboard-rules.yml");
    await writeFile(rulesFile, rules);
    const checked = (() => {
      try {
        return { code: 0, output: execFileSync(PROMTOOL, ["check", "rules", rulesFile], { stdio: "pipe" }).toString() };
      } catch (err) {
        const e = err as { status: number; stdout: Buffer; stderr: Buffer };
        return { code: e.status, output: `${e.stdout}${e.stderr}` };
      }
    })();
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toContain(`SUCCESS: ${exprs.length} rules found`);
    const exposed = new Set([...`${apiText}\n${workerText}`.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    for (const expr of exprs) {
      for (const [name] of expr.matchAll(/\b(?:codesynapse|process|nodejs)_[a-z_]+\b/g)) {
        expect(exposed, `${name} in the dashboard`).toContain(name.replace(/_(bucket|sum|count)$/, ""));
      }
    }
  });

  it("the worker serves /healthz and /readyz on its metrics port", async () => {
    expect((await call(workerMetricsUrl, "GET", "/healthz")).status).toBe(200);
    const ready = await call(workerMetricsUrl, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: "ok", redis: "ok" });
  });
});

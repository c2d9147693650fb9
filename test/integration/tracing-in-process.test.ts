/**
 * Tracing in one process with the SDK's in-memory exporter (docs/observability.md): the real
 * composition root (startPlatform: API and the ingest and embedding pools) on a fresh PostgreSQL
 * database, tracing started as the launcher starts it — import-in-the-middle's hook registered
 * first, then startTracing, then the application imported — and a real HTTP request whose job the
 * in-process worker runs. Asserts the parent/child chain and that no span carries the session id.
 * Every import that loads express, pg or ioredis is dynamic, after the hook: a static import would
 * load them before it (what the launcher avoids by importing the CLI dynamically).
 */
import { register } from "node:module";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, expect, it } from "vitest";
import { INSTRUMENTED_MODULES } from "../../api/telemetry/tracing-env";
import { describeWithService, probeService, serviceUrl } from "../support/services";

register("import-in-the-middle/hook.mjs", import.meta.url, { data: { include: [...INSTRUMENTED_MODULES] } });
process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
const memory = new InMemorySpanExporter();
const { startTracing } = await import("../../api/telemetry/tracing");
const stopTracing = await startTracing({ env: { ...process.env, OTEL_TRACES_EXPORTER: "otlp" }, exporter: memory });

const postgres = await probeService("postgres");

describeWithService(postgres, "tracing in one process, in-memory exporter", () => {
  const dbName = `cs_trace_${randomBytes(6).toString("hex")}`;
  let adminUrl: string;
  let root: string;
  let platform: Awaited<ReturnType<typeof import("../../main/runtime").startPlatform>>;
  let pgMod: typeof import("pg").default;

  beforeAll(async () => {
    pgMod = (await import("pg")).default;
    adminUrl = serviceUrl("postgres")!;
    const admin = new pgMod.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    root = await mkdtemp(path.join(tmpdir(), "cs-trace-"));
    await (await import("../support/fixture-repo")).writeFixtureRepo(path.join(root, "repo"));
    const { loadConfig } = await import("../../core/config");
    const { silentLogger } = await import("../../core/log");
    const { startPlatform } = await import("../../main/runtime");
    const config = loadConfig({}, { DATABASE_URL: u.toString(), PORT: "0", INGEST_ALLOWED_ROOTS: root, LOG_LEVEL: "silent" });
    platform = await startPlatform(config, { serve: true, pools: ["ingest", "embedding"], logger: silentLogger() });
  });

  afterAll(async () => {
    await platform?.stop();
    await stopTracing();
    if (root) await rm(root, { recursive: true, force: true });
    const admin = new pgMod.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it("HTTP request → submit → job span → its pg calls, in one trace; no span names the session", async () => {
    const { seedAccount } = await import("../support/fixtures");
    const { call, registerThread } = await import("../support/http");
    const { waitFor } = await import("../support/jobs");
    const a = await seedAccount(platform.ctx.db);
    const { session, headers } = await registerThread(platform.url!, a.apiKey);
    const r = await call(platform.url!, "POST", `/api/v1/repos/${a.repoName}/ingest`, { headers, body: { path: path.join(root, "repo") } });
    expect(r.status, r.text).toBe(202);
    const jobId: string = r.body.job_id;
    // The session id in a query string: without the sanitizer it would arrive in url.query.
    expect((await call(platform.url!, "GET", `/api/v1/repos/${a.repoName}/session-memory?q=${session}`, { headers })).status).toBe(200);

    const spans = () => memory.getFinishedSpans();
    const job = await waitFor(async () => spans().find((s) => s.attributes["codesynapse.job.id"] === jobId && s.name === "job ingest.snapshot"), 60_000, 100);
    const byId = new Map(spans().map((s) => [s.spanContext().spanId, s]));
    const ancestors = (s: ReadableSpan) => {
      const out: ReadableSpan[] = [];
      for (let p = byId.get(s.parentSpanContext?.spanId ?? ""); p; p = byId.get(p.parentSpanContext?.spanId ?? "")) out.push(p);
      return out;
    };
    expect(ancestors(job).map((s) => s.name)).toEqual(["submit ingest.snapshot", "request handler", "POST /api/v1/repos/:repo/ingest"]);
    expect(ancestors(job).every((s) => s.spanContext().traceId === job.spanContext().traceId)).toBe(true);
    expect(job.attributes).toMatchObject({ "codesynapse.tenant.id": a.orgId, "codesynapse.job.outcome": "succeeded" });
    const underJob = spans().filter((s) => s.attributes["db.system.name"] === "postgresql" && ancestors(s).includes(job));
    expect(underJob.length).toBeGreaterThan(0);
    const row = await platform.ctx.db.selectFrom("jobs").select("traceparent").where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row.traceparent).toBe(`00-${job.spanContext().traceId}-${job.parentSpanContext!.spanId}-01`);
    const text = JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    expect(spans().some((s) => s.attributes["http.route"] === "/api/v1/repos/:repo/session-memory")).toBe(true);
    expect(text).not.toContain(session);
    expect(text).not.toContain(a.apiKey);
  });
});

/**
 * The OpenAPI document served at GET /api/openapi.json: valid OpenAPI 3.1 by a
 * real validator (@apidevtools/swagger-parser), describing exactly the routes
 * the catalog mounted — every route the app serves is in it or on the short
 * list of routes that are not execution operations, and every route in it is
 * served — and what it says about a body is what the route does.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import type { MemoryServices } from "../../core/memory/services";
import { openApiPath } from "../../api/openapi";
import { operationRoutes } from "../../api/operations";
import { scalarBundle } from "../../api/routes/reference";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/** (method, path) of every route an express Router holds, in the routers it mounts too. */
function mounted(router: { stack: Layer[] }): string[] {
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((l) => (l.route ? Object.keys(l.route.methods).map((m) => `${m.toUpperCase()} ${openApiPath(l.route!.path)}`) : l.handle?.stack ? walk(l.handle.stack) : []));
  return walk(router.stack).sort();
}

/** What the app serves that is not a catalog operation (none of it is part of a runtime's work through the API). */
const NOT_OPERATIONS = [
  "GET /.well-known/oauth-protected-resource", // RFC 9728 metadata
  "GET /.well-known/oauth-protected-resource/mcp",
  "GET /admin", // the operators' console (platform admins) and its sign-in page and assets
  "GET /admin/assets/charts.js",
  "GET /admin/assets/console.css",
  "GET /admin/assets/console.js",
  "GET /admin/assets/uplot.css",
  "GET /admin/assets/uplot.js",
  "GET /admin/jobs",
  "GET /admin/jobs/{id}",
  "GET /admin/queues",
  "GET /admin/sign-in",
  "GET /api/openapi.json", // this document
  "GET /api/reference", // the interactive reference over it, its icon and its versioned bundle
  "GET /api/reference/favicon.svg",
  `GET ${scalarBundle().url}`,
  "POST /api/v1/repos/{repo}/offload", // removed: 410
  "GET /healthz",
  "GET /readyz",
  "GET /metrics",
  "DELETE /mcp", // the MCP transport, whose tools are the catalog's operations
  "GET /mcp",
  "POST /mcp",
  "_ALL /mcp",
].sort();

await describeEachDatabase("OpenAPI document", (t) => {
  let srv: TestServer;
  let doc: OpenAPIV3_1.Document;
  let memory: MemoryServices;
  beforeAll(async () => {
    const ctx = testContext(t().db);
    memory = buildMemoryServices(ctx.config, t().db, ctx.clock, ctx.logger);
    ctx.memory = memory;
    srv = await listen(createApp(ctx));
    const r = await call(srv.url, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    doc = r.body as OpenAPIV3_1.Document;
  });
  afterAll(async () => {
    await srv.close();
    memory.close();
  });

  it("is valid OpenAPI 3.1 (swagger-parser validates schema and references)", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const validated = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(Object.keys(validated.paths ?? {}).length).toBeGreaterThan(5);
  });

  it("documents exactly the routes the catalog mounts, and every operation id once", () => {
    const documented = Object.entries(doc.paths ?? {}).flatMap(([p, item]) => Object.keys(item!).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    const router = operationRoutes(testContext(t().db)) as unknown as Parameters<typeof mounted>[0];
    expect(documented).toEqual(mounted(router));
    // The whole app: a hand-written route beside the catalog fails here until it is an operation or listed above.
    const app = createApp(testContext(t().db)) as unknown as { router: Parameters<typeof mounted>[0] };
    const served = mounted(app.router);
    expect(served.filter((r) => !NOT_OPERATIONS.includes(r))).toEqual(documented);
    expect(NOT_OPERATIONS.filter((r) => !served.includes(r))).toEqual([]);
    // The job operations are in it too.
    for (const r of ["POST /api/v1/repos/{repo}/ingest", "GET /api/v1/jobs/{id}", "GET /api/v1/jobs/{id}/events", "POST /api/v1/repos/{repo}/uploads"]) {
      expect(documented).toContain(r);
    }
    const ids = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item!).map((o) => (o as OpenAPIV3_1.OperationObject).operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a body field the document does not list is refused by the route; the listed ones are accepted", async () => {
    const a = await seedAccount(t().db);
    const thread = await registerThread(srv.url, a.apiKey);
    const recall = doc.paths!["/api/v1/repos/{repo}/session-memory/recall"]!.post!;
    const body = (recall.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/json"]!.schema as OpenAPIV3_1.SchemaObject;
    expect(Object.keys(body.properties ?? {}).sort()).toEqual(["as_of", "limit", "query"]);
    expect(body.required).toEqual(["query"]);
    const url = `/api/v1/repos/${a.repoId}/session-memory/recall`;
    const okr = await call(srv.url, "POST", url, { headers: thread.headers, body: { query: "auth", limit: 3 } });
    expect(okr.status).toBe(200);
    // memory_scope is the operation's input, but this route fixes it: the document does not list it and the route refuses it.
    const fixed = await call(srv.url, "POST", url, { headers: thread.headers, body: { query: "auth", memory_scope: "repository" } });
    expect([fixed.status, fixed.body.error.code]).toEqual([400, "validation_failed"]);
  });

  it("documents what is not a JSON body: the idempotency headers, the raw archive upload, the event stream, a second success status", () => {
    const ingest = doc.paths!["/api/v1/repos/{repo}/ingest"]!.post!;
    const params = (ingest.parameters as OpenAPIV3_1.ParameterObject[]).map((p) => `${p.in}:${p.name}`);
    expect(params).toContain("header:Idempotency-Key");
    const accepted = ingest.responses!["202"] as OpenAPIV3_1.ResponseObject;
    expect(Object.keys(accepted.headers ?? {})).toEqual(["Idempotent-Replayed"]);
    const submitted = accepted.content!["application/json"]!.schema as OpenAPIV3_1.SchemaObject;
    expect(Object.keys(submitted.properties ?? {})).toEqual(["job_id"]);
    const body = (ingest.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/json"]!.schema as OpenAPIV3_1.SchemaObject;
    expect(Object.keys(body.properties ?? {}).sort()).toEqual(["git_url", "path", "ref", "upload_id"]);
    const upload = doc.paths!["/api/v1/repos/{repo}/uploads"]!.post!;
    expect(Object.keys((upload.requestBody as OpenAPIV3_1.RequestBodyObject).content)).toContain("application/octet-stream");
    expect(Object.keys(upload.responses!)).toContain("201");
    const events = doc.paths!["/api/v1/jobs/{id}/events"]!.get!;
    expect(Object.keys((events.responses!["200"] as OpenAPIV3_1.ResponseObject).content!)).toEqual(["text/event-stream"]);
    expect(Object.keys(doc.paths!["/api/v1/jobs/{id}/cancel"]!.post!.responses!).filter((s) => s < "300").sort()).toEqual(["200", "202"]);
    const wait = (doc.paths!["/api/v1/jobs/{id}"]!.get!.parameters as OpenAPIV3_1.ParameterObject[]).find((p) => p.in === "query");
    expect(wait?.name).toBe("wait");
  });

  it("names the execution headers, the repository permission and the MCP tool of an operation", () => {
    const op = doc.paths!["/api/v1/repos/{repo}/session-memory/promote"]!.post!;
    const headers = (op.parameters as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === "header").map((p) => p.name.toLowerCase());
    expect(headers).toEqual(["x-codesynapse-session", "x-codesynapse-parent-session"]);
    expect(op.description).toContain("`write` permission");
    expect(op.description).toContain("promote_session_facts");
  });
});

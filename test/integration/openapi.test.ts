/**
 * The OpenAPI document served at GET /api/openapi.json: valid OpenAPI 3.1 by a
 * real validator (@apidevtools/swagger-parser), describing exactly the routes
 * the catalog mounted — and what it says about a body is what the route does.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import type { MemoryServices } from "../../core/memory/services";
import { openApiPath } from "../../api/openapi";
import { operationRoutes } from "../../api/operations";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";

/** (method, path) of every route an express Router holds. */
function mounted(router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> }): string[] {
  return router.stack.flatMap((l) => (l.route ? Object.keys(l.route.methods).map((m) => `${m.toUpperCase()} ${openApiPath(l.route!.path)}`) : [])).sort();
}

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
    const ids = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item!).map((o) => (o as OpenAPIV3_1.OperationObject).operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a body field the document does not list is refused by the route; the listed ones are accepted", async () => {
    const a = await seedAccount(t().db);
    const thread = await registerThread(srv.url, a.apiKey);
    const recall = doc.paths!["/api/v1/repos/{repo}/session-memory/recall"]!.post!;
    const body = (recall.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/json"]!.schema as OpenAPIV3_1.SchemaObject;
    expect(Object.keys(body.properties ?? {}).sort()).toEqual(["limit", "query"]);
    expect(body.required).toEqual(["query"]);
    const url = `/api/v1/repos/${a.repoId}/session-memory/recall`;
    const okr = await call(srv.url, "POST", url, { headers: thread.headers, body: { query: "auth", limit: 3 } });
    expect(okr.status).toBe(200);
    // memory_scope is the operation's input, but this route fixes it: the document does not list it and the route refuses it.
    const fixed = await call(srv.url, "POST", url, { headers: thread.headers, body: { query: "auth", memory_scope: "repository" } });
    expect([fixed.status, fixed.body.error.code]).toEqual([400, "validation_failed"]);
  });

  it("names the execution headers, the repository permission and the MCP tool of an operation", () => {
    const op = doc.paths!["/api/v1/repos/{repo}/session-memory/promote"]!.post!;
    const headers = (op.parameters as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === "header").map((p) => p.name.toLowerCase());
    expect(headers).toEqual(["x-codesynapse-session", "x-codesynapse-parent-session"]);
    expect(op.description).toContain("`write` permission");
    expect(op.description).toContain("promote_session_facts");
  });
});

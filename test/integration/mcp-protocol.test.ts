/** Protocol hygiene: an unsupported mcp-protocol-version never comes back, or reaches the logs, verbatim. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { testContext } from "../support/app";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
const ACCEPT = { accept: "application/json, text/event-stream" };

await describeEachDatabase("MCP protocol errors", (t) => {
  let srv: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const logger = pino({ level: "trace" }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    srv = await listen(createApp(testContext(t().db, { logger })));
  });
  afterAll(() => srv.close());

  it("an unsupported mcp-protocol-version is a stable error that quotes nothing of the request", async () => {
    const a = await seedAccount(t().db);
    const init = await call(srv.url, "POST", "/mcp", { headers: { ...bearer(a.apiKey), ...ACCEPT }, body: INIT });
    expect(init.status).toBe(200);
    const sid = init.headers.get("mcp-session-id")!;
    const probe = uniq("probe-version");
    for (const method of ["POST", "GET", "DELETE"] as const) {
      const r = await call(srv.url, method, "/mcp", {
        headers: { ...bearer(a.apiKey), ...ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": probe },
        ...(method === "POST" ? { body: { jsonrpc: "2.0", id: 2, method: "tools/list" } } : {}),
      });
      expect([r.status, r.body?.error?.data?.code], `${method} ${r.text}`).toEqual([400, "mcp_protocol_unsupported"]);
      expect(r.text, method).not.toContain(probe);
    }
    expect(lines.join("\n")).not.toContain(probe);
  });
});

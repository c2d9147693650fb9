/**
 * SIGTERM to the real `codesynapse start` (docs/architecture.md "Shutdown")
 * while MCP Streamable HTTP clients hold their transports and SSE streams open
 * and another client holds an idle keep-alive connection: the process exits 0
 * within the drain bound, and an SSE stream ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, expect, it } from "vitest";
import { cleanEnv, startServer } from "../support/process";

const dataDir = mkdtempSync(path.join(tmpdir(), "codesynapse-shutdown-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const DRAIN_MS = 3_000;

const ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };

it("exits 0 within the drain while MCP clients hold their transports and SSE streams and a keep-alive connection idles", async () => {
  const srv = await startServer(["start"], cleanEnv({ CODESYNAPSE_DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) }));
  const client = new Client({ name: "shutdown-test", version: "1.0.0" });
  const agent = new http.Agent({ keepAlive: true });
  try {
    // The SDK's client, with its own standalone SSE stream.
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // A raw client whose SSE stream the test reads to its end.
    const init = await fetch(`${srv.url}/mcp`, { method: "POST", headers: ACCEPT, body: JSON.stringify(INIT) });
    const mcpSession = init.headers.get("mcp-session-id")!;
    await init.text();
    const headers = { ...ACCEPT, "mcp-session-id": mcpSession, "mcp-protocol-version": "2025-06-18" };
    await (await fetch(`${srv.url}/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const sse = await fetch(`${srv.url}/mcp`, { headers: { ...headers, accept: "text/event-stream" } });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    const streamEnded = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
    })();
    // An idle keep-alive connection.
    await new Promise<void>((resolve, reject) => http.get(`${srv.url}/healthz`, { agent }, (res) => (res.resume(), res.on("end", resolve))).on("error", reject));

    const t0 = Date.now();
    const code = await srv.stop();
    const took = Date.now() - t0;
    console.log(`[shutdown] exited ${code} ${took} ms after SIGTERM with two MCP clients and an idle keep-alive connection (drain ${DRAIN_MS} ms)`);
    expect(code).toBe(0);
    expect(took).toBeLessThan(DRAIN_MS); // nothing was running: no stream or idle connection may hold it to the bound
    expect(await Promise.race([streamEnded, new Promise((r) => setTimeout(() => r(false), 2_000))])).toBe(true);
  } finally {
    agent.destroy();
    await client.close().catch(() => undefined);
    if (srv.child.exitCode === null) srv.child.kill("SIGKILL");
  }
}, 120_000);

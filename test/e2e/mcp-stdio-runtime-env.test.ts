/**
 * `codesynapse mcp` spawned as a runtime spawns it: Claude Code sets CLAUDE_CODE_SESSION_ID (with
 * CLAUDECODE=1) in the environment of its stdio servers, Codex CODEX_THREAD_ID. With only that and
 * the key the process serves as exactly that thread; variables naming two threads, an unregistered
 * or a revoked ID refuse to start (never echoing the ID); and a client that names another thread in
 * a tool call's `_meta` is refused by the server, not run as the process's thread.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { readSettings } from "../../api/mcp/stdio";
import { testContextWithMemory } from "../support/app";
import { runScript, type RunResult } from "../support/process";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { call, executionHeaders, listen, registerThread, type TestServer } from "../support/http";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = "bin/codesynapse.js";

function runToExit(env: Record<string, string>): Promise<RunResult> {
  return runScript(BIN, ["mcp"], { ...getDefaultEnvironment(), LOG_LEVEL: "silent", ...env }, 30_000, { cwd: ROOT, stdin: "" });
}

describe("codesynapse mcp started by a runtime's own session variable", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;
  const clients: Client[] = [];
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContextWithMemory(database.db)));
    a = await seedAccount(database.db);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await srv?.close();
    await database?.close();
  });

  async function spawnThread(env: Record<string, string>): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: ROOT, env: { LOG_LEVEL: "silent", CODESYNAPSE_URL: srv.url, ...env }, stderr: "pipe" });
    const client = new Client({ name: "runtime-env-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it("Claude Code's CLAUDE_CODE_SESSION_ID and the key alone: every call runs as exactly that thread", async () => {
    const thread = await registerThread(srv.url, a.apiKey, crypto.randomUUID());
    const client = await spawnThread({ CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: thread.session, CODESYNAPSE_API_KEY: a.apiKey });
    const r = await client.callTool({ name: "get_identity", arguments: {} });
    expect(r.structuredContent).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId, session_id: thread.session, parent_session_id: thread.session });
    // The same thread named again in the call's _meta is the same thread.
    const same = await client.callTool({ name: "get_identity", arguments: {}, _meta: { threadId: thread.session } });
    expect(same.structuredContent).toMatchObject({ session_id: thread.session });
    // Another thread named in _meta is refused by the server, not run as this process's thread or as the other.
    const other = await registerThread(srv.url, a.apiKey);
    await expect(client.callTool({ name: "get_identity", arguments: {}, _meta: { threadId: other.session } })).rejects.toThrow(/The request names two different threads/);
  });

  it("started before the runtime's SessionStart hook registered the thread, it waits for the registration and then serves as that thread", async () => {
    const session = crypto.randomUUID();
    const client = spawnThread({ CLAUDE_CODE_SESSION_ID: session, CODESYNAPSE_API_KEY: a.apiKey });
    // Past the process's start-up (about a second through tsx): its first identity check has found nothing yet.
    await new Promise((r) => setTimeout(r, 3_000));
    await registerThread(srv.url, a.apiKey, session);
    expect((await (await client).callTool({ name: "get_identity", arguments: {} })).structuredContent).toMatchObject({ session_id: session });
  });

  it("Codex's CODEX_THREAD_ID the same", async () => {
    const thread = await registerThread(srv.url, a.apiKey, uniq("019a"));
    const client = await spawnThread({ CODEX_THREAD_ID: thread.session, CODESYNAPSE_API_KEY: a.apiKey });
    expect((await client.callTool({ name: "get_identity", arguments: {} })).structuredContent).toMatchObject({ session_id: thread.session });
  });

  it("refuses to start when two variables name different threads, or the runtime's ID is unregistered or revoked", async () => {
    const one = await registerThread(srv.url, a.apiKey);
    const two = await registerThread(srv.url, a.apiKey);
    const conflict = await runToExit({
      CODESYNAPSE_URL: srv.url,
      CODESYNAPSE_API_KEY: a.apiKey,
      CODESYNAPSE_SESSION_ID: one.session,
      CODESYNAPSE_PARENT_SESSION_ID: one.session,
      CLAUDE_CODE_SESSION_ID: two.session,
    });
    expect([conflict.code, conflict.stdout]).toEqual([2, ""]);
    expect(conflict.stderr).toMatch(/session_source_conflict/);
    expect(conflict.stderr).not.toContain(one.session);
    expect(conflict.stderr).not.toContain(two.session);

    // Unregistered: waited for (the hook registers it meanwhile), then refused; never registered by the process.
    const unregistered = uniq("never");
    const started = Date.now();
    const unknown = await runToExit({ CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CLAUDE_CODE_SESSION_ID: unregistered, CODESYNAPSE_MCP_REGISTRATION_WAIT_MS: "1500" });
    expect([unknown.code, unknown.stdout]).toEqual([1, ""]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(unknown.stderr).toMatch(/session_not_found/);
    expect(unknown.stderr).not.toContain(unregistered);
    expect((await call(srv.url, "GET", "/api/v1/execution/identity", { headers: executionHeaders(a.apiKey, unregistered) })).status).toBe(404);

    await one.client.revoke();
    const revoked = await runToExit({ CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CLAUDE_CODE_SESSION_ID: one.session });
    expect([revoked.code, revoked.stdout]).toEqual([1, ""]);
    expect(revoked.stderr).toMatch(/session_revoked/);
  }, 120_000);

  it("reads the runtime variables with the rules of ours: validated, agreeing, the parent equal", () => {
    const key = `csk_0123abcd_${"a".repeat(43)}`;
    expect(readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "t-1" })).toMatchObject({ sessionId: "t-1", registrationWaitMs: 10_000 });
    // Our own variable names a thread the launcher registered first: no wait.
    expect(readSettings({ CODESYNAPSE_API_KEY: key, CODESYNAPSE_SESSION_ID: "t-1", CODESYNAPSE_PARENT_SESSION_ID: "t-1" }).registrationWaitMs).toBe(0);
    expect(readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "t-1", CODEX_THREAD_ID: "t-1" }).sessionId).toBe("t-1");
    expect(readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "t-1", CODESYNAPSE_SESSION_ID: "t-1", CODESYNAPSE_PARENT_SESSION_ID: "t-1" }).sessionId).toBe("t-1");
    expect(() => readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "t-1", CODEX_THREAD_ID: "t-2" })).toThrow(/session_source_conflict/);
    expect(() => readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "has space" })).toThrow(/CLAUDE_CODE_SESSION_ID is malformed/);
    expect(() => readSettings({ CODESYNAPSE_API_KEY: key, CLAUDE_CODE_SESSION_ID: "t-1", CODESYNAPSE_PARENT_SESSION_ID: "t-2" })).toThrow(/missing CODESYNAPSE_SESSION_ID/);
    expect(() => readSettings({ CLAUDE_CODE_SESSION_ID: "t-1" })).toThrow(/missing CODESYNAPSE_API_KEY\./);
  });
});

/**
 * `codesynapse mcp` over a real spawned stdio process (MCP-3, VER-2): the app
 * runs in-process on an ephemeral port; each test spawns
 * `node bin/codesynapse.js mcp` with CODESYNAPSE_URL pointing at it and talks
 * to it with the SDK's own Client.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createApp } from "../../api/app";
import { removeMember } from "../../core/accounts/accounts";
import { readSettings } from "../../api/mcp/stdio";
import { testContextWithMemory } from "../support/app";
import { runScript, type RunResult } from "../support/process";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { listen, registerThread, threadClient, type TestServer } from "../support/http";
import { identityStore } from "../../db/sql/identity/store";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = "bin/codesynapse.js";

function threadEnv(url: string, a: Account, session: string, parent = session): Record<string, string> {
  return { CODESYNAPSE_URL: url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: session, CODESYNAPSE_PARENT_SESSION_ID: parent };
}

/**
 * Runs `codesynapse mcp` to completion (for refusals): exit code, stdout, stderr. Its stdin carries
 * a client that would start the handshake right away and stays open: a refusing process must
 * exit on its own and never answer it.
 */
function runToExit(env: Record<string, string>): Promise<RunResult> {
  return runScript(BIN, ["mcp"], { ...getDefaultEnvironment(), LOG_LEVEL: "silent", ...env }, 30_000, {
    cwd: ROOT,
    stdin: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } })}\n`,
    keepStdinOpen: true,
  });
}

await describeEachDatabase("codesynapse mcp over stdio", (t) => {
  let srv: TestServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    srv = await listen(createApp(testContextWithMemory(t().db)));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await srv.close();
  });

  const register = async (a: Account, id?: string): Promise<string> => (await registerThread(srv.url, a.apiKey, id)).session;

  async function spawnThread(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: ROOT, env: { LOG_LEVEL: "silent", ...env }, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (c) => (stderr += String(c)));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr };
  }

  it("without the variables it exits non-zero with a message and never answers MCP", async () => {
    const r = await runToExit({ CODESYNAPSE_URL: srv.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to start: missing CODESYNAPSE_API_KEY, CODESYNAPSE_SESSION_ID, CODESYNAPSE_PARENT_SESSION_ID/);
    expect(r.stdout).toBe("");
    const a = await seedAccount(t().db);
    const id = await register(a);
    const onlyOne = await runToExit({ CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: id });
    expect(onlyOne.code).toBe(2);
    expect(onlyOne.stderr).toMatch(/missing CODESYNAPSE_PARENT_SESSION_ID/);
    expect(onlyOne.stdout).toBe("");
  });

  it("refuses malformed, mismatched, unregistered and foreign sessions without echoing them", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const mine = await register(a);
    const theirs = await register(b);
    const unregistered = uniq("never-registered");

    const malformed = await runToExit(threadEnv(srv.url, a, "has space"));
    expect([malformed.code, malformed.stdout]).toEqual([2, ""]);
    expect(malformed.stderr).toMatch(/CODESYNAPSE_SESSION_ID is malformed/);

    const mismatch = await runToExit(threadEnv(srv.url, a, mine, uniq("other")));
    expect([mismatch.code, mismatch.stdout]).toEqual([2, ""]);
    expect(mismatch.stderr).toMatch(/CODESYNAPSE_PARENT_SESSION_ID must equal CODESYNAPSE_SESSION_ID: a chat thread's primary session is its own parent/);

    // A malformed parent is told the ID rule, not "must equal"; a key of the wrong shape is told the shape.
    const badParent = await runToExit(threadEnv(srv.url, a, mine, "has space"));
    expect([badParent.code, badParent.stdout]).toEqual([2, ""]);
    expect(badParent.stderr).toMatch(/CODESYNAPSE_PARENT_SESSION_ID is malformed \(1-128 of A-Z a-z 0-9 \. _ : -\)/);
    expect(badParent.stderr).not.toContain("has space");
    const notAKey = await runToExit({ ...threadEnv(srv.url, a, mine), CODESYNAPSE_API_KEY: "sk-live-not-ours" });
    expect([notAKey.code, notAKey.stdout]).toEqual([2, ""]);
    expect(notAKey.stderr).toMatch(/CODESYNAPSE_API_KEY is not shaped like a CodeSynapse personal API key \(csk_, 8 hex digits/);
    expect(notAKey.stderr).not.toContain("sk-live-not-ours");

    const unknown = await runToExit(threadEnv(srv.url, a, unregistered));
    expect([unknown.code, unknown.stdout]).toEqual([1, ""]);
    expect(unknown.stderr).toMatch(/session_not_found/);
    expect(unknown.stderr).not.toContain(unregistered);

    const foreign = await runToExit(threadEnv(srv.url, a, theirs));
    expect([foreign.code, foreign.stdout]).toEqual([1, ""]);
    expect(foreign.stderr).toMatch(/session_forbidden/);
    expect(foreign.stderr).not.toContain(theirs);

    const badKey = await runToExit({ ...threadEnv(srv.url, a, mine), CODESYNAPSE_API_KEY: b.apiKey.replace(/.$/, (c) => (c === "A" ? "B" : "A")) });
    expect([badKey.code, badKey.stdout]).toEqual([1, ""]);
    expect(badKey.stderr).toMatch(/invalid_credentials/);
  }, 240_000); // seven processes started one after another

  it("a registered thread serves MCP on stdio with its identity; stderr carries the logs", async () => {
    const a = await seedAccount(t().db);
    const id = await register(a);
    const { client, stderr } = await spawnThread(threadEnv(srv.url, a, id));
    const tools = await client.listTools();
    expect(tools.tools.map((x) => x.name)).toContain("get_identity");
    const r = await client.callTool({ name: "get_identity", arguments: {} });
    expect(r.structuredContent).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId, session_id: id, parent_session_id: id });
    expect(stderr()).toMatch(/serving on stdio/);
  });

  it("two processes for two threads keep their memories apart; facts carry each thread's identity", async () => {
    const a = await seedAccount(t().db);
    const one = await register(a);
    const two = await register(a);
    const [p1, p2] = await Promise.all([spawnThread(threadEnv(srv.url, a, one)), spawnThread(threadEnv(srv.url, a, two))]);
    const [r1, r2] = await Promise.all([p1.client.callTool({ name: "get_identity", arguments: {} }), p2.client.callTool({ name: "get_identity", arguments: {} })]);
    expect((r1.structuredContent as { session_id: string }).session_id).toBe(one);
    expect((r2.structuredContent as { session_id: string }).session_id).toBe(two);

    const remember = (c: Client, s: string, o: string) =>
      c.callTool({ name: "upsert_session_facts", arguments: { repo: a.repoName, triples: [{ subject: s, predicate: "depends_on", object: o }] } });
    await Promise.all([remember(p1.client, "AuthService", "TokenStore"), remember(p2.client, "BillingJob", "StripeClient")]);
    const read = async (c: Client) =>
      ((await c.callTool({ name: "read_session_memory", arguments: { repo: a.repoName } })).structuredContent as { facts: Array<{ subject: { name: string } }> }).facts.map(
        (f) => f.subject.name,
      );
    expect(await read(p1.client)).toEqual(["AuthService"]);
    expect(await read(p2.client)).toEqual(["BillingJob"]);
    const recall = await p2.client.callTool({ name: "recall_context", arguments: { repo: a.repoId, query: "AuthService TokenStore" } });
    // Thread two's recall may rank its own facts, never thread one's.
    const recalled = (recall.structuredContent as { results: Array<{ subject: { name: string }; object: { name: string } }> }).results;
    expect(recalled.flatMap((r) => [r.subject.name, r.object.name])).not.toContain("AuthService");
    expect(recalled.flatMap((r) => [r.subject.name, r.object.name])).not.toContain("TokenStore");
    // Over REST, each thread's headers see exactly what its process stored.
    const rest = await threadClient(srv.url, a.apiKey, one).call("session_memory.read", { repo: a.repoId });
    expect(rest.facts.map((f) => f.subject.name)).toEqual(["AuthService"]);

    // A durable write through thread two's process records thread two as origin.
    await p2.client.callTool({ name: "upsert_graph_triples", arguments: { repo: a.repoId, triples: [{ subject: "LedgerStore", predicate: "uses", object: "Postgres" }] } });
    const nodes = await p1.client.callTool({ name: "search_graph_nodes", arguments: { repo: a.repoId, query: "LedgerStore" } });
    expect((nodes.structuredContent as { nodes: Array<{ origin_session_id: string }> }).nodes[0]!.origin_session_id).toBe(two);
  });

  it("membership revoked mid-conversation: the next tool call fails", async () => {
    const a = await seedAccount(t().db);
    const id = await register(a);
    const { client } = await spawnThread(threadEnv(srv.url, a, id));
    expect((await client.callTool({ name: "get_identity", arguments: {} })).isError).toBeFalsy();
    await removeMember(identityStore(t().db), { orgId: a.orgId, userId: a.userId });
    await expect(client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/not a member/);
  });

  // The guide's "try it by hand": a fixed script piped in, stdin closed right after it. Every
  // request read before the end of input is answered, in both eras, and only then does it exit 0.
  const MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "shell", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const request = (id: number, method: string, params: Record<string, unknown>, modern: boolean) => ({
    jsonrpc: "2.0",
    id,
    method,
    params: modern ? { ...params, _meta: MODERN_META } : params,
  });
  it.each([
    ["2025 (initialize)", false],
    ["2026-07-28 (server/discover)", true],
  ])("a script piped in with stdin closed gets every answer before the exit: %s", async (_era, modern) => {
    const a = await seedAccount(t().db);
    const id = await register(a);
    const script = [
      modern
        ? request(1, "server/discover", {}, true)
        : request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "shell", version: "0" } }, false),
      ...(modern ? [] : [{ jsonrpc: "2.0", method: "notifications/initialized" }]),
      request(2, "tools/list", {}, modern),
      request(3, "tools/call", { name: "get_identity", arguments: {} }, modern),
      request(4, "tools/call", { name: "recall_context", arguments: { repo: "no-such-repo", query: "what depends on AuthService" } }, modern),
      request(5, "tools/call", { name: "get_identity", arguments: {} }, modern),
    ];
    const r = await runScript(BIN, ["mcp"], { ...getDefaultEnvironment(), LOG_LEVEL: "silent", ...threadEnv(srv.url, a, id) }, 60_000, {
      cwd: ROOT,
      stdin: script.map((m) => `${JSON.stringify(m)}\n`).join(""),
    });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: number; result?: any; error?: any });
    expect(answers.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    const byId = new Map(answers.map((m) => [m.id, m]));
    expect(byId.get(1)!.result).toMatchObject(modern ? { supportedVersions: ["2026-07-28"] } : { protocolVersion: "2025-06-18" });
    expect(byId.get(2)!.result.tools.map((x: { name: string }) => x.name)).toContain("get_identity");
    for (const n of [3, 5]) expect(byId.get(n)!.result.structuredContent).toMatchObject({ tenant_id: a.orgId, session_id: id, parent_session_id: id });
    // A refusal is an answer too: the platform's code for a repository the thread cannot see.
    expect(byId.get(4)!.result).toMatchObject({ isError: true, structuredContent: { error: { code: expect.stringMatching(/^repo_/) } } });
  });

  it("settings are read once: changing the environment object afterwards changes nothing", () => {
    const env: NodeJS.ProcessEnv = { CODESYNAPSE_API_KEY: `csk_0123abcd_${"a".repeat(43)}`, CODESYNAPSE_SESSION_ID: "thread-1", CODESYNAPSE_PARENT_SESSION_ID: "thread-1" };
    const s = readSettings(env);
    env.CODESYNAPSE_SESSION_ID = "thread-2";
    env.CODESYNAPSE_PARENT_SESSION_ID = "thread-2";
    expect(s.sessionId).toBe("thread-1");
    expect(Object.isFrozen(s)).toBe(true);
  });
});

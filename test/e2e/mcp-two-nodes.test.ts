/**
 * Any API node serves any MCP session (MCP-2): two real `codesynapse serve`
 * processes on one real PostgreSQL database (created for this file, dropped after), behind a
 * round-robin HTTP proxy on 127.0.0.1, and the SDK's own Client through initialize and
 * alternating tool calls. Rebinding is refused on both nodes, a first binding raced on the two
 * nodes has exactly one winner, an ended session is 404 on both and the client initializes
 * again, and a node that stops leaves its sessions to the other.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../../db/database";
import { describeWithService, probeService } from "../support/services";
import { seedAccount, type Account } from "../support/fixtures";
import { call, registerThread } from "../support/http";
import { cleanEnv, startServer, type Started } from "../support/process";
import { startRoundRobinProxy, type RoundRobinProxy } from "../support/round-robin-proxy";

const status = await probeService("postgres");
const ACCEPT = { accept: "application/json, text/event-stream" };
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};
const identityCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_identity", arguments: {} } });
const PROTOCOL = { "mcp-protocol-version": "2025-06-18" };

/** The JSON-RPC messages of an SSE (or JSON) response body. */
function rpcMessages(text: string): any[] {
  const out: any[] = [];
  for (const line of text.split("\n")) if (line.startsWith("data: ")) out.push(JSON.parse(line.slice(6)));
  if (out.length === 0 && text.trim().startsWith("{")) out.push(JSON.parse(text));
  return out;
}

describeWithService(status, "MCP on two API nodes behind a round-robin proxy [postgres]", () => {
  const dbName = `cs_mcp2_${randomBytes(5).toString("hex")}`;
  let dbUrl: string;
  let database: OpenDatabase;
  let nodes: Started[] = [];
  let proxy: RoundRobinProxy;
  let alice: Account;
  let bob: Account;
  const clients: Client[] = [];

  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: status.url });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    const u = new URL(status.url!);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    database = await openDatabase({ url: dbUrl, poolSize: 4 });
    await migrateToLatest(database.db);
    alice = await seedAccount(database.db);
    bob = await seedAccount(database.db, { orgId: alice.orgId, repoId: alice.repoId });
    const env = cleanEnv({ DATABASE_URL: dbUrl, LOG_LEVEL: "warn" });
    nodes = await Promise.all([startServer(["serve"], { ...env, LOG_LEVEL: "info" }), startServer(["serve"], { ...env, LOG_LEVEL: "info" })]);
    proxy = await startRoundRobinProxy(nodes.map((n) => n.url));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await proxy?.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await database?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
  }, 60_000);

  async function connect(base: string, headers: Record<string, string>) {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: "two-nodes", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent;
  }

  /** A raw POST on an existing MCP session, straight to one node. */
  const rawPost = (node: number, mcpSession: string, headers: Record<string, string>, body: unknown) =>
    call(nodes[node]!.url, "POST", "/mcp", { headers: { ...ACCEPT, ...PROTOCOL, ...headers, "mcp-session-id": mcpSession }, body });

  /** A raw initialize on one node; returns the new Mcp-Session-Id. */
  async function rawInitialize(node: number, headers: Record<string, string>): Promise<string> {
    const r = await call(nodes[node]!.url, "POST", "/mcp", { headers: { ...ACCEPT, ...headers }, body: INIT });
    expect(r.status).toBe(200);
    const sid = r.headers.get("mcp-session-id");
    expect(sid).toBeTruthy();
    return sid!;
  }

  it("the SDK client initializes once and alternating tool calls are served by both nodes", async () => {
    const thread = await registerThread(nodes[0]!.url, alice.apiKey);
    const { client, transport } = await connect(proxy.url, thread.headers);
    const sid = transport.sessionId!;
    const written: string[] = [];
    for (let i = 0; i < 6; i++) {
      if (i % 2 === 0) {
        const name = `Service${i}`;
        await tool(client, "upsert_session_facts", { repo: alice.repoId, triples: [{ subject: name, predicate: "depends_on", object: "TokenStore" }] });
        written.push(name);
      } else {
        const mem = await tool(client, "read_session_memory", { repo: alice.repoId });
        const names = (mem.entities as Array<{ name: string }>).map((e) => e.name);
        for (const w of written) expect(names).toContain(w);
      }
    }
    const who = await tool(client, "get_identity", {});
    expect(who.session_id).toBe(thread.session);
    const calls = proxy.log.filter((s) => s.mcpSession === sid && s.rpc.includes("tools/call"));
    expect(calls).toHaveLength(7);
    // Round robin: the tool calls of this one MCP session landed on both nodes.
    expect(new Set(calls.map((c) => c.backend))).toEqual(new Set([0, 1]));
    const init = proxy.log.find((s) => s.rpc.includes("initialize") && s.mcpSession === undefined);
    expect(init).toBeDefined();
  });

  it("a bound session refuses another session and another caller on both nodes, and serves its owner on both", async () => {
    const t1 = await registerThread(nodes[0]!.url, alice.apiKey);
    const t2 = await registerThread(nodes[0]!.url, alice.apiKey);
    const tb = await registerThread(nodes[1]!.url, bob.apiKey);
    const sid = await rawInitialize(0, t1.headers);
    for (const node of [0, 1]) {
      for (const [headers, code] of [
        [t2.headers, "mcp_binding_mismatch"],
        [tb.headers, "mcp_binding_mismatch"],
      ] as const) {
        const r = await rawPost(node, sid, headers, identityCall(10 + node));
        expect(r.status, `node ${node}`).toBe(403);
        expect(r.body.error.data.code).toBe(code);
        expect(r.text).not.toContain(t1.session);
        expect(r.text).not.toContain(t2.session);
      }
      // No session headers at all: refused too.
      const none = await rawPost(node, sid, { authorization: `Bearer ${alice.apiKey}` }, identityCall(20 + node));
      expect(none.status).toBeGreaterThanOrEqual(400);
      const ok = await rawPost(node, sid, t1.headers, identityCall(30 + node));
      expect(ok.status).toBe(200);
      expect(rpcMessages(ok.text)[0].result.structuredContent.session_id).toBe(t1.session);
    }
  });

  it("a first binding raced on the two nodes has exactly one winner, on both nodes", async () => {
    const t1 = await registerThread(nodes[0]!.url, alice.apiKey);
    const t2 = await registerThread(nodes[0]!.url, alice.apiKey);
    for (let round = 0; round < 5; round++) {
      // Unbound: initialize without naming a session.
      const sid = await rawInitialize(round % 2, { authorization: `Bearer ${alice.apiKey}` });
      const [a, b] = await Promise.all([rawPost(0, sid, t1.headers, identityCall(1)), rawPost(1, sid, t2.headers, identityCall(2))]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 403]);
      const winner = a.status === 200 ? t1 : t2;
      const loser = a.status === 200 ? t2 : t1;
      for (const node of [0, 1]) {
        expect((await rawPost(node, sid, winner.headers, identityCall(3))).status).toBe(200);
        expect((await rawPost(node, sid, loser.headers, identityCall(4))).status).toBe(403);
      }
    }
  });

  it("a session ended on one node is 404 on the other, and the client initializes again with the same thread", async () => {
    const thread = await registerThread(nodes[0]!.url, alice.apiKey);
    const sid = await rawInitialize(0, thread.headers);
    // Node 1 learns of the session (and caches a transport for it) before it ends.
    expect((await rawPost(1, sid, thread.headers, identityCall(1))).status).toBe(200);
    const del = await call(nodes[0]!.url, "DELETE", "/mcp", { headers: { ...thread.headers, ...PROTOCOL, "mcp-session-id": sid } });
    expect(del.status).toBe(200);
    for (const node of [0, 1]) {
      const r = await rawPost(node, sid, thread.headers, identityCall(2));
      expect(r.status, `node ${node}`).toBe(404);
      expect(r.body.error.data.code).toBe("not_found");
    }
    // The re-initialise path: a new MCP session for the same chat thread, through the proxy.
    const { client, transport } = await connect(proxy.url, thread.headers);
    expect(transport.sessionId).not.toBe(sid);
    expect((await tool(client, "get_identity", {})).session_id).toBe(thread.session);
  });

  it("when a node stops, the other serves its sessions without a new initialize", async () => {
    const thread = await registerThread(nodes[0]!.url, alice.apiKey);
    const { client, transport } = await connect(proxy.url, thread.headers);
    const sid = transport.sessionId!;
    await tool(client, "get_identity", {});
    const stopped = await nodes[0]!.stop();
    expect(stopped).toBe(0);
    for (let i = 0; i < 4; i++) expect((await tool(client, "get_identity", {})).session_id).toBe(thread.session);
    expect(transport.sessionId).toBe(sid);
    const after = proxy.log.filter((s) => s.mcpSession === sid && s.rpc.includes("tools/call")).slice(-4);
    expect(after.every((s) => s.backend === 1)).toBe(true);
  });
});

/**
 * MCP over Streamable HTTP (MCP-2, VER-2), black-box: the real app on an
 * ephemeral port, the SDK's own Client, and raw HTTP where a test must send
 * what a well-behaved client never would (another session's headers on an
 * existing transport).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createApp } from "../../api/app";
import { grantRepo, removeMember, suspendMember } from "../../core/accounts/accounts";
import { makeIdentity } from "../../core/execution/identity";
import { enqueueJob } from "../../queues/sql/enqueueJob";
import { testContextWithMemory } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, executionHeaders, listen, registerThread, threadClient, type TestServer } from "../support/http";
import { identityStore } from "../../db/sql/identity/store";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};
const ACCEPT = { accept: "application/json, text/event-stream" };

const execHeaders = (a: Account, session: string) => executionHeaders(a.apiKey, session);

/** The JSON-RPC messages of an SSE (or JSON) response body. */
function rpcMessages(text: string): any[] {
  const out: any[] = [];
  for (const line of text.split("\n")) if (line.startsWith("data: ")) out.push(JSON.parse(line.slice(6)));
  if (out.length === 0 && text.trim().startsWith("{")) out.push(JSON.parse(text));
  return out;
}

await describeEachDatabase("MCP over Streamable HTTP", (t) => {
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

  async function connect(headers: Record<string, string> = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** A raw POST of one JSON-RPC message on an existing transport. */
  async function rawPost(mcpSession: string, headers: Record<string, string>, body: unknown) {
    return call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, ...headers, "mcp-session-id": mcpSession }, body });
  }

  /** A tool's structured result; a tool error fails the test with its code. */
  async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent;
  }
  async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
    const r = await client.callTool({ name, arguments: args });
    expect(r.isError, `${name} should fail`).toBe(true);
    return (r.structuredContent as { error: { code: string } }).error.code;
  }

  const identityCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_identity", arguments: {} } });

  it("initialize and tools/list work without identity; tools/call does not", async () => {
    const { client } = await connect();
    const tools = await client.listTools();
    expect(tools.tools.map((x) => x.name)).toContain("get_identity");
    for (const tool of tools.tools) expect(tool.description?.length ?? 0).toBeGreaterThan(40);
    await expect(client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/401|unauthenticated/);
  });

  it("every tool tools/list names has a row in docs/mcp-client-guide.md's tool table, and the table names no other", async () => {
    const { client } = await connect();
    const listed = (await client.listTools()).tools.map((x) => x.name).sort();
    const guide = readFileSync(new URL("../../docs/mcp-client-guide.md", import.meta.url), "utf8");
    const rows = [...guide.matchAll(/^\| `([a-z_]+)[ `]/gm)].map((m) => m[1]!).sort();
    expect(rows).toEqual(listed);
  });

  it("tools/call with credentials but without the session headers fails", async () => {
    const a = await seedAccount(t().db);
    const { client } = await connect(bearer(a.apiKey));
    await expect(client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/invalid_session_header/);
  });

  it("a tool call runs as the registered identity; the transport ID is not the primary session", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const { client, transport } = await connect(execHeaders(a, thread));
    const r = await client.callTool({ name: "get_identity", arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId, session_id: thread, parent_session_id: thread });
    expect(transport.sessionId).toBeTruthy();
    expect(transport.sessionId).not.toBe(thread);
  });

  it("refuses to switch X-CodeSynapse-Session on an existing transport, without echoing the ID", async () => {
    const a = await seedAccount(t().db);
    const first = await register(a);
    const second = await register(a);
    const { client, transport } = await connect(execHeaders(a, first));
    expect((await client.callTool({ name: "get_identity", arguments: {} })).structuredContent).toMatchObject({ session_id: first });
    const sid = transport.sessionId!;

    const switched = await rawPost(sid, execHeaders(a, second), identityCall(90));
    expect([switched.status, switched.body.error.data.code]).toEqual([403, "mcp_binding_mismatch"]);
    expect(switched.text).not.toContain(second);
    // Another user of the same organisation, with their own valid session, is refused too.
    const b = await seedAccount(t().db, { orgId: a.orgId });
    const theirs = await register(b);
    const foreign = await rawPost(sid, execHeaders(b, theirs), identityCall(91));
    expect([foreign.status, foreign.body.error.data.code]).toEqual([403, "mcp_binding_mismatch"]);
    // A bound transport needs its binding on every request, even tools/list.
    const bare = await rawPost(sid, {}, { jsonrpc: "2.0", id: 92, method: "tools/list" });
    expect(bare.status).toBe(401);
    // The owner still works on the same transport.
    const again = await rawPost(sid, execHeaders(a, first), identityCall(93));
    expect(again.status).toBe(200);
    expect(rpcMessages(again.text)[0].result.structuredContent.session_id).toBe(first);
  });

  it("an unbound transport binds to the first identity that calls a tool", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const other = await register(a);
    const init = await call(srv.url, "POST", "/mcp", { headers: ACCEPT, body: INIT });
    expect(init.status).toBe(200);
    const sid = init.headers.get("mcp-session-id")!;
    expect((await rawPost(sid, {}, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const first = await rawPost(sid, execHeaders(a, thread), identityCall(2));
    expect(rpcMessages(first.text)[0].result.structuredContent.session_id).toBe(thread);
    const switched = await rawPost(sid, execHeaders(a, other), identityCall(3));
    expect(switched.status).toBe(403);
  });

  it("GET/SSE and DELETE must present the same binding; DELETE by the owner ends the transport", async () => {
    const a = await seedAccount(t().db);
    const mine = await register(a);
    const b = await seedAccount(t().db);
    const theirs = await register(b);
    const { client, transport } = await connect(execHeaders(a, mine));
    await client.callTool({ name: "get_identity", arguments: {} });
    const sid = transport.sessionId!;

    const sse = await fetch(`${srv.url}/mcp`, { headers: { accept: "text/event-stream", "mcp-session-id": sid, ...execHeaders(b, theirs) } });
    expect(sse.status).toBe(403);
    await sse.body?.cancel();
    const sseBare = await fetch(`${srv.url}/mcp`, { headers: { accept: "text/event-stream", "mcp-session-id": sid } });
    expect(sseBare.status).toBe(401);
    await sseBare.body?.cancel();

    const del = await call(srv.url, "DELETE", "/mcp", { headers: { "mcp-session-id": sid, ...execHeaders(b, theirs) } });
    expect([del.status, del.body.error.data.code]).toEqual([403, "mcp_binding_mismatch"]);
    expect(del.text).not.toContain(theirs);
    const delBare = await call(srv.url, "DELETE", "/mcp", { headers: { "mcp-session-id": sid } });
    expect(delBare.status).toBe(401);
    // Still alive for its owner.
    expect((await client.callTool({ name: "get_identity", arguments: {} })).isError).toBeFalsy();

    await transport.terminateSession();
    const after = await rawPost(sid, execHeaders(a, mine), identityCall(5));
    expect(after.status).toBe(404);
  });

  it("membership revoked mid-conversation: the next tool call fails", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    expect((await client.callTool({ name: "get_identity", arguments: {} })).isError).toBeFalsy();
    await removeMember(identityStore(t().db), { orgId: a.orgId, userId: a.userId });
    await expect(client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/403|not_a_member/);
  });

  it("a suspended membership and a revoked session stop tool calls too", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    expect((await client.callTool({ name: "get_identity", arguments: {} })).isError).toBeFalsy();
    await threadClient(srv.url, a.apiKey, thread).revoke();
    await expect(client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/410|session_revoked/);

    const b = await seedAccount(t().db);
    const other = await register(b);
    const second = await connect(execHeaders(b, other));
    await suspendMember(identityStore(t().db), { orgId: b.orgId, userId: b.userId, at: new Date() });
    await expect(second.client.callTool({ name: "get_identity", arguments: {} })).rejects.toThrow(/membership_suspended/);
  });

  it("unknown transports are 404, a missing one 400, and unregistered sessions are refused without echo", async () => {
    const a = await seedAccount(t().db);
    const r = await rawPost("no-such-transport", execHeaders(a, await register(a)), identityCall(1));
    expect(r.status).toBe(404);
    const missing = await call(srv.url, "POST", "/mcp", { headers: ACCEPT, body: identityCall(1) });
    expect(missing.status).toBe(400);
    const ghost = uniq("never-registered");
    const init = await call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, ...execHeaders(a, ghost) }, body: INIT });
    expect([init.status, init.body.error.data.code]).toEqual([404, "session_not_found"]);
    expect(init.text).not.toContain(ghost);
  });

  it("identity propagates into stored facts: session memory is the thread's own, durable facts record it as origin", async () => {
    const a = await seedAccount(t().db);
    const one = await register(a);
    const two = await register(a);
    const { client: c1 } = await connect(execHeaders(a, one));
    const { client: c2 } = await connect(execHeaders(a, two));
    const triple = { subject: "AuthService", predicate: "depends_on", object: "TokenStore", subject_type: "class", object_type: "class" };

    const w = await tool(c1, "upsert_session_facts", { repo: a.repoName, triples: [triple], source: "design notes" });
    expect(w.facts[0]).toMatchObject({ predicate: "depends_on" });
    // The same thread sees it over REST and over MCP; the other thread of the same user sees nothing.
    const rest = await threadClient(srv.url, a.apiKey, one).call("session_memory.read", { repo: a.repoId });
    expect(rest.facts.map((f) => f.fact_id)).toEqual([w.facts[0].fact_id]);
    expect((await tool(c2, "read_session_memory", { repo: a.repoId })).facts).toEqual([]);
    const recalled = await tool(c1, "recall_context", { repo: a.repoId, query: "what does AuthService depend on" });
    expect(recalled.results[0]).toMatchObject({ fact_id: w.facts[0].fact_id, subject: { name: "AuthService" }, object: { name: "TokenStore" } });
    expect((await tool(c2, "recall_context", { repo: a.repoId, query: "AuthService TokenStore" })).results).toEqual([]);
    // Nothing durable yet.
    expect((await tool(c1, "recall_context", { repo: a.repoId, query: "AuthService", memory_scope: "repository" })).results).toEqual([]);

    // Durable writes record the writing thread.
    const d = await tool(c2, "upsert_graph_triples", { repo: a.repoId, triples: [{ subject: "BillingJob", predicate: "uses", object: "StripeClient" }] });
    const nodes = await tool(c1, "search_graph_nodes", { repo: a.repoId, query: "billingjob" });
    expect(nodes.nodes.map((n: any) => n.name)).toEqual(["BillingJob"]);
    expect(nodes.nodes[0].origin_session_id).toBe(two);
    const g = await tool(c1, "query_subgraph", { repo: a.repoId, node_id: d.facts[0].subject_id });
    expect(g.edges).toEqual([expect.objectContaining({ predicate: "uses", origin_session_id: two })]);

    // Promotion copies thread one's fact into durable memory with thread one as origin; the session fact stays.
    const p = await tool(c1, "promote_session_facts", { repo: a.repoId, fact_ids: [w.facts[0].fact_id] });
    expect(p.promoted).toHaveLength(1);
    const durable = await tool(c2, "recall_context", { repo: a.repoId, query: "AuthService TokenStore", memory_scope: "repository" });
    expect(durable.results[0]).toMatchObject({ fact_id: p.promoted[0], subject: { name: "AuthService" } });
    expect((await tool(c1, "read_session_memory", { repo: a.repoId })).facts).toHaveLength(1);
    const origin = await tool(c2, "search_graph_nodes", { repo: a.repoId, query: "AuthService" });
    expect(origin.nodes[0].origin_session_id).toBe(one);
  });

  it("offload_turns writes this thread's session memory only", async () => {
    const a = await seedAccount(t().db);
    const one = await register(a);
    const two = await register(a);
    const { client: c1 } = await connect(execHeaders(a, one));
    const { client: c2 } = await connect(execHeaders(a, two));
    const r = await tool(c1, "offload_turns", { repo: a.repoId, turns: [{ role: "user", content: "The PaymentService depends on LedgerStore." }] });
    expect(r).toEqual({ accepted: 1, offload_id: expect.stringMatching(/^of_[0-9a-f]{12}$/) });
    let facts: any[] = [];
    for (let i = 0; i < 50 && facts.length === 0; i++) {
      facts = (await tool(c1, "read_session_memory", { repo: a.repoId })).facts;
      if (facts.length === 0) await new Promise((res) => setTimeout(res, 100));
    }
    // The statement itself, and the code relation it states.
    const lines = facts.map((f) => [f.subject.name, f.predicate, f.object.name]);
    expect(lines).toContainEqual(["PaymentService", "depends_on", "LedgerStore"]);
    expect(lines).toContainEqual(["PaymentService", "states", "The PaymentService depends on LedgerStore."]);
    expect(lines).toHaveLength(2);
    expect((await tool(c2, "read_session_memory", { repo: a.repoId })).facts).toEqual([]);
    expect((await tool(c1, "recall_context", { repo: a.repoId, query: "PaymentService", memory_scope: "repository" })).results).toEqual([]);
  });

  it("repository tools check the repository permission (MCP-1a) and refuse unknown arguments", async () => {
    const a = await seedAccount(t().db, { repoLevel: "read" });
    const stranger = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    const triple = { subject: "A1", predicate: "calls", object: "B1" };
    const w = await tool(client, "upsert_session_facts", { repo: a.repoName, triples: [triple] });
    expect(await toolError(client, "upsert_graph_triples", { repo: a.repoId, triples: [triple] })).toBe("repo_permission_denied");
    expect(await toolError(client, "promote_session_facts", { repo: a.repoId, fact_ids: [w.facts[0].fact_id] })).toBe("repo_permission_denied");
    expect(await toolError(client, "recall_context", { repo: stranger.repoId, query: "A1" })).toBe("repo_not_found");
    expect(await toolError(client, "search_graph_nodes", { repo: stranger.repoName, query: "A1" })).toBe("repo_not_found");
    await grantRepo(identityStore(t().db), { repoId: a.repoId, userId: a.userId, level: "write" });
    expect((await tool(client, "promote_session_facts", { repo: a.repoName, fact_ids: [w.facts[0].fact_id] })).promoted).toHaveLength(1);
    // Arguments never select the session, and unknown ones are refused.
    const sneaky = await client.callTool({ name: "read_session_memory", arguments: { repo: a.repoId, session_id: uniq("other") } });
    expect(sneaky.isError).toBe(true);
    const badPredicate = await client.callTool({ name: "upsert_session_facts", arguments: { repo: a.repoId, triples: [{ ...triple, predicate: "Not Valid" }] } });
    expect(badPredicate.isError).toBe(true);
  });

  it("get_job shows a job of this thread only", async () => {
    const a = await seedAccount(t().db);
    const one = await register(a);
    const two = await register(a);
    const identity = makeIdentity({ tenant_id: a.orgId, subject_id: a.userId, session_id: one, parent_session_id: one });
    const job = await enqueueJob(t().db, new Date(), {
      kind: "mcp.test",
      pool: "ai",
      params: { question: "what calls AuthService?" },
      repoId: a.repoId,
      restartable: true,
      maxAttempts: 1,
      identity,
      actor: { userId: a.userId, apiKeyId: a.keyId, loginSessionId: null },
      dispatched: false,
    });
    const { client: c1 } = await connect(execHeaders(a, one));
    const { client: c2 } = await connect(execHeaders(a, two));
    const seen = await tool(c1, "get_job", { job_id: job!.id });
    expect(seen).toMatchObject({ id: job!.id, kind: "mcp.test", status: "queued", repo_id: a.repoId, params: { question: "what calls AuthService?" } });
    expect(JSON.stringify(seen)).not.toContain(a.keyId);
    expect(await toolError(c2, "get_job", { job_id: job!.id })).toBe("job_not_found");
    expect(await toolError(c1, "get_job", { job_id: "job_00000000000000000000000000000000" })).toBe("job_not_found");
  });

  /** The guide's one tool-error shape: isError, structuredContent {error: {code, message}}, the same JSON as text. */
  function documentedError(r: Awaited<ReturnType<Client["callTool"]>>): { code: string; message: string; details?: any } {
    expect(r.isError).toBe(true);
    const body = r.structuredContent as { error: { code: string; message: string; details?: unknown } };
    expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const content = r.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe("text");
    expect(JSON.parse(content[0]!.text)).toEqual(body);
    return body.error as { code: string; message: string; details?: any };
  }

  it("argument validation failures are tool errors of the documented shape: validation_failed, field paths, no values", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    const r = await client.callTool({ name: "recall_context", arguments: { repo: a.repoId, limit: "lots-of-secret-words", secret_key_name: "shh-value" } });
    const e = documentedError(r);
    expect(e.code).toBe("validation_failed");
    const paths = (e.details.problems as { path: string }[]).map((p) => p.path);
    // query is missing, limit has the wrong type, and an unknown argument is refused on the whole object.
    expect(paths).toEqual(expect.arrayContaining(["query", "limit", "(arguments)"]));
    expect(JSON.stringify(r)).not.toMatch(/secret|shh|MCP error|-32602/);
    // Boundary-rule refusals (core/boundary.ts) have the same shape.
    const nul = documentedError(await client.callTool({ name: "recall_context", arguments: { repo: a.repoId, query: "evil\u0000query" } }));
    expect(nul.code).toBe("validation_failed");
    expect(nul.message).not.toMatch(/evil/);
  });

  it("an unknown tool name is a tool error of the documented shape, unknown_tool, without echoing the name", async () => {
    const a = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    const name = uniq("no_such_tool");
    const r = await client.callTool({ name, arguments: { x: 1 } });
    expect(documentedError(r).code).toBe("unknown_tool");
    expect(JSON.stringify(r)).not.toContain(name);
    expect(JSON.stringify(r)).not.toMatch(/MCP error|-32602/);
  });

  it("platform refusals are tool errors of the documented shape", async () => {
    const a = await seedAccount(t().db, { repoLevel: "read" });
    const stranger = await seedAccount(t().db);
    const thread = await register(a);
    const { client } = await connect(execHeaders(a, thread));
    const triple = { subject: "A1", predicate: "calls", object: "B1" };
    expect(documentedError(await client.callTool({ name: "upsert_graph_triples", arguments: { repo: a.repoId, triples: [triple] } })).code).toBe("repo_permission_denied");
    const hidden = await client.callTool({ name: "recall_context", arguments: { repo: stranger.repoId, query: "A1" } });
    expect(documentedError(hidden).code).toBe("repo_not_found");
    expect(JSON.stringify(hidden)).not.toContain(stranger.repoId);
    expect(documentedError(await client.callTool({ name: "get_job", arguments: { job_id: "job_00000000000000000000000000000000" } })).code).toBe("job_not_found");
  });
});

/**
 * Runtimes that name their thread in MCP `_meta` instead of our headers, spoken on the wire as
 * they send it: a Codex-shaped 2026-07-28 tools/call (`_meta.threadId`, the API key, no execution
 * headers) and a VS Code Copilot-shaped one (`_meta["vscode.conversationId"]`), on the stateless
 * revision and on a 2025-11-25 session. Each runs as exactly that thread; a request naming two
 * different threads (header and `_meta`, or two `_meta` keys) is refused and never runs as either;
 * a tool argument `threadId` never selects a thread; an unregistered, foreign, revoked, dashboard or
 * malformed ID is refused without being echoed; a 2025 session bound through `_meta` stays bound.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { testContextWithMemory } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type JsonResponse, type TestServer } from "../support/http";

const MODERN = "2026-07-28";
const ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" };

/** A 2026-07-28 tools/call as a runtime sends it: the envelope and the runtime's own keys in `_meta`. */
function modernCall(id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown>) {
  return {
    headers: { ...ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
    body: {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientInfo": { name: "runtime", version: "0" },
          "io.modelcontextprotocol/clientCapabilities": {},
          ...meta,
        },
      },
    },
  };
}

/** The JSON-RPC message of a JSON or one-event SSE body. */
function rpc(r: JsonResponse): any {
  const data = r.text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : r.text);
}

function sessionOf(r: JsonResponse): string {
  expect(r.status, r.text).toBe(200);
  const result = rpc(r).result;
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  return result.structuredContent.session_id as string;
}

await describeEachDatabase("MCP: the thread named by a runtime's _meta", (t) => {
  let srv: TestServer;
  let a: Account;
  let b: Account;
  beforeAll(async () => {
    srv = await listen(createApp(testContextWithMemory(t().db)));
    a = await seedAccount(t().db);
    b = await seedAccount(t().db);
  });
  afterAll(async () => {
    await srv.close();
  });

  const post = (m: { headers: Record<string, string>; body: unknown }, extra: Record<string, string> = {}) =>
    call(srv.url, "POST", "/mcp", { headers: { ...m.headers, ...extra }, body: m.body });

  it("a Codex-shaped 2026-07-28 tools/call with _meta.threadId and only the key runs as exactly that thread", async () => {
    const one = await registerThread(srv.url, a.apiKey, uniq("019a-codex"));
    const two = await registerThread(srv.url, a.apiKey, uniq("019a-codex"));
    const r1 = await post(modernCall(1, "get_identity", {}, { threadId: one.session }), bearer(a.apiKey));
    const result = rpc(r1).result.structuredContent;
    expect(result).toEqual({ tenant_id: a.orgId, subject_id: a.userId, session_id: one.session, parent_session_id: one.session, expires_at: one.expiresAt });
    expect(sessionOf(await post(modernCall(2, "get_identity", {}, { threadId: two.session }), bearer(a.apiKey)))).toBe(two.session);
    // What a thread stores lands in that thread's memory only.
    const upsert = modernCall(3, "upsert_session_facts", { repo: a.repoName, triples: [{ subject: "AuthService", predicate: "uses", object: "TokenStore" }] }, { threadId: one.session });
    expect((await post(upsert, bearer(a.apiKey))).status).toBe(200);
    expect((await one.client.call("session_memory.read", { repo: a.repoName })).facts).toHaveLength(1);
    expect((await two.client.call("session_memory.read", { repo: a.repoName })).facts).toHaveLength(0);
  });

  it("a VS Code-shaped call (_meta[\"vscode.conversationId\"]) runs as that conversation, on 2026-07-28 and on a 2025-11-25 session that stays bound", async () => {
    const conv = await registerThread(srv.url, a.apiKey, crypto.randomUUID());
    expect(sessionOf(await post(modernCall(1, "get_identity", {}, { "vscode.conversationId": conv.session }), bearer(a.apiKey)))).toBe(conv.session);

    // The 2025 revision VS Code speaks: initialize (no identity), then tool calls naming the conversation in _meta.
    const init = await call(srv.url, "POST", "/mcp", {
      headers: { ...ACCEPT, ...bearer(a.apiKey) },
      body: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "Visual Studio Code", version: "1.110.0" } } },
    });
    expect(init.status).toBe(200);
    const sid = init.headers.get("mcp-session-id")!;
    const legacy = { ...ACCEPT, ...bearer(a.apiKey), "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    const legacyCall = (id: number, meta: Record<string, unknown>) =>
      call(srv.url, "POST", "/mcp", { headers: legacy, body: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_identity", arguments: {}, _meta: meta } } });
    expect(sessionOf(await legacyCall(2, { "vscode.conversationId": conv.session }))).toBe(conv.session);
    // Bound: another registered conversation of the same user cannot take the session over, by _meta or by headers on a resumed stream.
    const other = await registerThread(srv.url, a.apiKey, crypto.randomUUID());
    const moved = await legacyCall(3, { "vscode.conversationId": other.session });
    expect(moved.status).toBe(403);
    expect(moved.body.error.data.code).toBe("mcp_binding_mismatch");
    const resumed = await fetch(`${srv.url}/mcp`, { headers: { ...legacy, ...other.headers, accept: "text/event-stream", "last-event-id": "0" } });
    expect(resumed.status).toBe(403);
    expect(((await resumed.json()) as any).error.data.code).toBe("mcp_binding_mismatch");
    expect(sessionOf(await legacyCall(4, { "vscode.conversationId": conv.session }))).toBe(conv.session);
  });

  it("two sources naming different threads are refused (session_source_conflict), never resolved by precedence", async () => {
    const one = await registerThread(srv.url, a.apiKey);
    const two = await registerThread(srv.url, a.apiKey);
    const conflicts = [
      // Our header names one thread, Codex's _meta another.
      await post(modernCall(1, "get_identity", {}, { threadId: two.session }), one.headers),
      // Codex's and VS Code's keys disagree.
      await post(modernCall(2, "get_identity", {}, { threadId: one.session, "vscode.conversationId": two.session }), bearer(a.apiKey)),
    ];
    for (const r of conflicts) {
      expect(r.status).toBe(400);
      expect(rpc(r).error.data.code).toBe("session_source_conflict");
      expect(r.text).not.toContain(one.session);
      expect(r.text).not.toContain(two.session);
    }
    // A batch whose messages name different threads is one request naming two.
    const batch = [modernCall(3, "get_identity", {}, { threadId: one.session }).body, modernCall(4, "get_identity", {}, { threadId: two.session }).body];
    const r = await call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, "mcp-protocol-version": MODERN, ...bearer(a.apiKey) }, body: batch });
    expect(r.status).toBe(400);
    expect(r.text).toContain("session_source_conflict");
    // The sources agreeing is one thread.
    expect(sessionOf(await post(modernCall(5, "get_identity", {}, { threadId: one.session }), one.headers))).toBe(one.session);
  });

  it("a tool argument threadId never selects a thread", async () => {
    const mine = await registerThread(srv.url, a.apiKey);
    const target = await registerThread(srv.url, a.apiKey);
    // With the headers naming a thread: the argument is refused by the tool's strict schema, nothing runs as the target.
    const r = await post(modernCall(1, "get_identity", { threadId: target.session }, {}), mine.headers);
    expect(r.status).toBe(200);
    const result = rpc(r).result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe("validation_failed");
    expect(r.text).not.toContain(target.session);
    // With nothing but the argument naming one: no thread is named at all.
    const none = await post(modernCall(2, "get_identity", { threadId: target.session }, {}), bearer(a.apiKey));
    expect(none.status).toBe(400);
    expect(rpc(none).error.data.code).toBe("invalid_session_header");
    // A memory tool's argument of that name is refused too; the write lands nowhere.
    const write = await post(
      modernCall(3, "upsert_session_facts", { repo: a.repoName, threadId: target.session, triples: [{ subject: "A", predicate: "b", object: "C" }] }, { threadId: mine.session }),
      bearer(a.apiKey),
    );
    expect(rpc(write).result.isError).toBe(true);
    expect((await target.client.call("session_memory.read", { repo: a.repoName })).facts).toHaveLength(0);
  });

  it("an unregistered, foreign, revoked or malformed _meta thread is refused, its ID never echoed", async () => {
    const unregistered = uniq("019a-never");
    const refused = async (threadId: unknown, code: string, status: number) => {
      const r = await post(modernCall(1, "get_identity", {}, { threadId }), bearer(a.apiKey));
      expect(r.status, r.text).toBe(status);
      expect(rpc(r).error.data.code).toBe(code);
      if (typeof threadId === "string") expect(r.text).not.toContain(threadId);
    };
    await refused(unregistered, "session_not_found", 404);
    const theirs = await registerThread(srv.url, b.apiKey);
    await refused(theirs.session, "session_forbidden", 403);
    const ended = await registerThread(srv.url, a.apiKey);
    expect(sessionOf(await post(modernCall(1, "get_identity", {}, { threadId: ended.session }), bearer(a.apiKey)))).toBe(ended.session);
    await ended.client.revoke();
    await refused(ended.session, "session_revoked", 410);
    // A dashboard binding is implicit to its browser sign-in: naming one in _meta is refused as in the headers.
    await refused(`web:${"a".repeat(64)}`, "dashboard_session_named", 403);
    await refused("has space", "invalid_session_header", 400);
    await refused(42, "invalid_session_header", 400);
    // VS Code's key the same.
    const r = await post(modernCall(1, "get_identity", {}, { "vscode.conversationId": unregistered }), bearer(a.apiKey));
    expect([r.status, rpc(r).error.data.code]).toEqual([404, "session_not_found"]);
  });
});

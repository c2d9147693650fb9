/**
 * Both protocol eras on one endpoint, with the official SDK v2 client (`@modelcontextprotocol/client`):
 * a client pinned to 2026-07-28 (stateless: server/discover, the per-request envelope, no
 * Mcp-Session-Id) and one on 2025-11-25 (initialize, a session), over HTTP and over stdio
 * (`codesynapse mcp`, spawned), each list every tool — every one with an outputSchema — and call
 * every one, the client checking each structuredContent against the listed schema. Around it, what the transport guarantees in both eras: the Origin rule before
 * any method, identity from the execution headers of each request (a stateless request without
 * them does no tool work), and one error shape (JSON-RPC errors with `data.code`, also for a body
 * that is not JSON).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import { buildMemoryServices } from "../../main/memory";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { fixtureTar } from "../support/archives";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { identityStore } from "../../db/sql/identity/store";

const MODERN = "2026-07-28";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const EVIL = { origin: "http://evil.example.com" };

/** A raw 2026-07-28 request: the envelope in `_meta` and the standard headers. */
function modernRequest(id: number, method: string, params: Record<string, unknown> = {}, name?: string) {
  const body = {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  const headers: Record<string, string> = { ...ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) };
  return { body, headers };
}

/** The JSON-RPC message of a JSON or one-event SSE body. */
function rpc(text: string): any {
  const data = text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : text);
}

describe("MCP: both eras on /mcp with the SDK v2 client", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost;
  let memory: MemoryServices;
  let root: string;
  let a: Account;
  const clients: Client[] = [];

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    root = await mkdtemp(path.join(tmpdir(), "cs-mcp-eras-"));
    const ctx = testContext(database.db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    memory = buildMemoryServices(ctx.config, database.db, systemClock, ctx.logger);
    const ref: { queue?: JobQueue } = {};
    th = await startTestHost(database, jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), { stores: { repository: memory.repository.store } });
    ref.queue = { db: database.db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    ctx.memory = memory;
    ctx.jobs = ref.queue;
    srv = await listen(createApp(ctx));
    a = await seedAccount(database.db, { repoLevel: "admin" });
    await writeFixtureRepo(path.join(root, "repo"));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await srv?.close();
    await th?.stop();
    memory?.close();
    await database?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function connect(era: "modern" | "legacy", via: "http" | "stdio", session: string, headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: `eras-${era}`, version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
    const transport =
      via === "http"
        ? new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers } })
        : new StdioClientTransport({
            command: process.execPath,
            args: ["bin/codesynapse.js", "mcp"],
            cwd: ROOT,
            env: { LOG_LEVEL: "silent", CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: session, CODESYNAPSE_PARENT_SESSION_ID: session },
            stderr: "pipe",
          });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  for (const [era, via] of [
    ["modern", "http"],
    ["legacy", "http"],
    ["modern", "stdio"],
    ["legacy", "stdio"],
  ] as const) {
    it(`${era === "modern" ? "2026-07-28" : "2025-11-25"} over ${via}: lists every tool with an outputSchema and calls each one`, async () => {
      const { headers, session, client: rest } = await registerThread(srv.url, a.apiKey);
      const client = await connect(era, via, session, headers);
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? MODERN : "2025-11-25");
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      expect(names).toHaveLength(31);
      for (const t of tools) {
        expect(t.outputSchema?.type, t.name).toBe("object");
        expect(t.annotations?.readOnlyHint, t.name).toBeTypeOf("boolean");
      }
      expect(tools.find((t) => t.name === "get_job")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(tools.find((t) => t.name === "clear_session_memory")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });

      const called: string[] = [];
      const use = async (name: string, args: Record<string, unknown>): Promise<any> => {
        called.push(name);
        // The client validates structuredContent against the tool's listed outputSchema.
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError ?? false, `${name}: ${JSON.stringify(r.structuredContent)}`).toBe(false);
        expect(r.structuredContent, name).toBeTypeOf("object");
        return r.structuredContent;
      };
      const repo = a.repoName;
      const triple = { subject: "AuthService", predicate: "depends_on", object: "TokenStore", subject_type: "class", object_type: "class" };
      expect(await use("get_identity", {})).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId });
      const facts = (await use("upsert_session_facts", { repo, triples: [triple] })).facts as { fact_id: string }[];
      expect((await use("read_session_memory", { repo })).facts.map((f: { fact_id: string }) => f.fact_id)).toEqual([facts[0]!.fact_id]);
      expect((await use("recall_context", { repo, query: "AuthService" })).results.length).toBeGreaterThan(0);
      expect(await use("offload_turns", { repo, turns: [{ role: "user", content: "The TokenStore caches tokens." }] })).toMatchObject({ accepted: 1 });
      expect((await use("promote_session_facts", { repo, fact_ids: [facts[0]!.fact_id] })).promoted).toHaveLength(1);
      const exported = await use("export_session_memory", { repo });
      expect(exported).toMatchObject({ facts: 1 });
      expect((await use("retract_session_fact", { repo, fact_id: facts[0]!.fact_id })).fact_id).toBe(facts[0]!.fact_id);
      expect((await use("session_fact_history", { repo, fact_id: facts[0]!.fact_id })).versions.length).toBeGreaterThan(0);
      expect(await use("clear_session_memory", { repo })).toMatchObject({ done: true });
      expect(await use("get_namespace_erasure", { repo })).toMatchObject({ scope: "namespace", clears: 1 });
      const durableFacts = (await use("upsert_graph_triples", { repo, triples: [{ ...triple, object: "Clock" }] })).facts as { fact_id: string }[];
      expect(durableFacts).toHaveLength(1);
      const repoExport = await use("export_repository_memory", { repo });
      expect(repoExport.facts).toBeGreaterThan(0);
      expect((await use("retract_repository_fact", { repo, fact_id: durableFacts[0]!.fact_id })).fact_id).toBe(durableFacts[0]!.fact_id);
      expect((await use("repository_fact_history", { repo, fact_id: durableFacts[0]!.fact_id })).versions[0]).toMatchObject({ status: "retracted" });
      // Import fills a repository with no memory facts: this one still holds the promoted fact.
      const refused = await client.callTool({ name: "import_repository_memory", arguments: { repo, jsonl: repoExport.jsonl } });
      expect(refused.isError).toBe(true);
      called.push("import_repository_memory");
      // A second thread of the same user takes this thread's export (import fills an empty namespace).
      const second = await registerThread(srv.url, a.apiKey);
      const importer = await connect(era, via, second.session, second.headers);
      const imported = await importer.callTool({ name: "import_session_memory", arguments: { repo, jsonl: exported.jsonl } });
      expect(imported.isError ?? false, JSON.stringify(imported.structuredContent)).toBe(false);
      expect(imported.structuredContent).toMatchObject({ facts: 1 });
      called.push("import_session_memory");
      // The erasure receipt of an ended thread, read from a live thread of the same user.
      const ended = await registerThread(srv.url, a.apiKey);
      await ended.client.revoke();
      expect(await use("get_session_erasure", { session_id: ended.session })).toMatchObject({ session_id: ended.session, cause: "revoked" });
      expect(await use("index_repository_memory", { repo })).toHaveProperty("indexed");
      const nodes = (await use("search_graph_nodes", { repo, query: "AuthService" })).nodes as { id: string }[];
      expect((await use("query_subgraph", { repo, node_id: nodes[0]!.id })).edges.length).toBeGreaterThan(0);
      // An upload stays REST; listing and discarding it are tools.
      const up = await rest.upload(repo, await fixtureTar({ "a.ts": "export const a = 1;\n" }));
      expect((await use("list_uploads", { repo })).uploads.map((u: { upload_id: string }) => u.upload_id)).toContain(up.upload_id);
      expect(await use("discard_upload", { repo, upload_id: up.upload_id })).toEqual({});
      const ingest = await use("submit_ingest", { repo, path: path.join(root, "repo") });
      expect(ingest.job_id).toMatch(/^job_/);
      let done = await use("get_job", { job_id: ingest.job_id, wait_ms: 20_000 });
      for (let i = 0; i < 8 && (done.status === "queued" || done.status === "running"); i++) done = await use("get_job", { job_id: ingest.job_id, wait_ms: 20_000 });
      expect(done.status).toBe("succeeded");
      const ask = await use("submit_ai_task", { repo, task: "summary" });
      expect((await use("list_jobs", {})).jobs.map((j: { id: string }) => j.id)).toEqual(expect.arrayContaining([ingest.job_id, ask.job_id]));
      const fix = await use("submit_fix_job", { repo, problem: "AuthService never expires tokens" });
      expect((await use("cancel_job", { job_id: fix.job_id })).id).toBe(fix.job_id);
      expect((await use("submit_embedding_refresh", { repo })).job_id).toMatch(/^job_/);
      // Last, as it erases this thread's durable facts and the graph nodes only they used.
      expect(await use("forget_session_writes", { repo, session_id: session })).toMatchObject({ scope: "promoted", session_id: session });
      expect(called.sort()).toEqual(names);
    }, 300_000);
  }

  it("an Origin that is not this server's is refused before initialize, tools/list or a 2026 request runs", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
    const r1 = await call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, ...EVIL }, body: init });
    expect(r1.status).toBe(403);
    expect(r1.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32001, data: { code: "mcp_origin_refused" } } });
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const r2 = await call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, ...EVIL, "mcp-protocol-version": "2025-06-18" }, body: list });
    expect(r2.status).toBe(403);
    const m = modernRequest(3, "tools/list");
    const r3 = await call(srv.url, "POST", "/mcp", { headers: { ...m.headers, ...EVIL }, body: m.body });
    expect(r3.status).toBe(403);
    expect((r3.body as any).error.data.code).toBe("mcp_origin_refused");
    const d = modernRequest(4, "server/discover");
    expect((await call(srv.url, "POST", "/mcp", { headers: { ...d.headers, ...EVIL }, body: d.body })).status).toBe(403);
    // The same requests from no Origin or this server's own are served.
    const own = await call(srv.url, "POST", "/mcp", { headers: { ...m.headers, origin: srv.url }, body: m.body });
    expect(own.status).toBe(200);
    expect(rpc(own.text).result.tools.length).toBe(31);
    // The modern era's list is cacheable for five minutes, for every caller alike.
    expect(rpc(own.text).result).toMatchObject({ ttlMs: 300_000 });
  });

  it("server/discover advertises 2026-07-28 and the tasks extension; an unsupported revision is -32022 with the supported ones", async () => {
    const d = modernRequest(1, "server/discover");
    const r = await call(srv.url, "POST", "/mcp", { headers: d.headers, body: d.body });
    expect(r.status).toBe(200);
    const result = rpc(r.text).result;
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities.extensions["io.modelcontextprotocol/tasks"]).toEqual({});
    expect(r.headers.get("mcp-session-id")).toBeNull();

    const bad = await call(srv.url, "POST", "/mcp", { headers: { ...ACCEPT, "mcp-protocol-version": "1999-01-01" }, body: { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} } });
    expect(bad.status).toBe(400);
    expect((bad.body as any).error.code).toBe(-32022);
    expect((bad.body as any).error.data.supported).toContain(MODERN);
  });

  it("a stateless request does no tool work without the execution headers, and the headers are checked on every request", async () => {
    const c = modernRequest(1, "tools/call", { name: "get_identity", arguments: {} }, "get_identity");
    const none = await call(srv.url, "POST", "/mcp", { headers: c.headers, body: c.body });
    expect(none.status).toBe(401);
    expect((none.body as any).error.data.code).toBe("unauthenticated");
    const { headers } = await registerThread(srv.url, a.apiKey);
    const ok = await call(srv.url, "POST", "/mcp", { headers: { ...c.headers, ...headers }, body: c.body });
    expect(ok.status).toBe(200);
    expect(rpc(ok.text).result.structuredContent).toMatchObject({ session_id: headers["x-codesynapse-session"] });
    // Another request, an unregistered session: refused, the ID not echoed.
    const foreign = { ...headers, "x-codesynapse-session": "not-registered-1", "x-codesynapse-parent-session": "not-registered-1" };
    const refused = await call(srv.url, "POST", "/mcp", { headers: { ...c.headers, ...foreign }, body: c.body });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.text).not.toContain("not-registered-1");
    // The Mcp-Name header must agree with the body (the SDK's header check).
    const lying = await call(srv.url, "POST", "/mcp", { headers: { ...c.headers, ...headers, "mcp-name": "get_job" }, body: c.body });
    expect(lying.status).toBe(400);
    expect((lying.body as any).error.code).toBe(-32020);
  });

  it("a body that is not JSON is a JSON-RPC parse error with a stable code", async () => {
    const res = await fetch(`${srv.url}/mcp`, { method: "POST", headers: ACCEPT, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700, data: { code: "validation_failed" } } });
  });
});

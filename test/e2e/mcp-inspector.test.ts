/**
 * The MCP Inspector's CLI (`npx @modelcontextprotocol/inspector --cli`, 2.x) against the real app
 * over Streamable HTTP, with the API key as a plain `Authorization: Bearer` header and
 * `--stored-auth-only` (the Inspector's documented switch for non-interactive runs: 2.x takes any
 * 401 for the start of an OAuth login, and with it refuses to start one): a wrong API key is
 * reported as `invalid_credentials`, not as an OAuth login; the right key lists the tools and
 * calls every one. The CLI runs with a fresh HOME, so no catalog or stored OAuth state of the
 * machine's user is read or written.
 * And the auth handshake an OAuth-aware client reads (docs/mcp-client-guide.md#authentication):
 * every 401 carries `WWW-Authenticate: Bearer … resource_metadata=…`, and the metadata it names is
 * served (RFC 9728), as the official SDK's own discovery functions read them.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { revokeApiKey } from "../../core/accounts/api-keys";
import { systemClock } from "../../core/clock";
import { IDENTITY_REFUSALS } from "../../core/errors-identity";
import type { MemoryServices } from "../../core/memory/services";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { fixtureTar } from "../support/archives";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount, type Account } from "../support/fixtures";
import { bearer, call, listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { identityStore } from "../../db/sql/identity/store";

/** The package's `mcp-inspector` bin (its launcher; `--cli` picks the CLI), as npx would run it. */
const INSPECTOR_DIR = path.resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol/inspector");
const INSPECTOR_BIN = path.join(
  INSPECTOR_DIR,
  (JSON.parse(readFileSync(path.join(INSPECTOR_DIR, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["mcp-inspector"]!,
);
const WRONG_KEY = "csk_0123456789abcdef0123456789abcdef";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `mcp-inspector --cli <url>/mcp --transport http --stored-auth-only --format json --method … --header …`,
 * with `home` as HOME and no TTY. Its stdout is `{"result": …}`; a failure is `{"error": {code, message}}` on stderr.
 */
function inspector(home: string, url: string, headers: Record<string, string>, args: string[]): Promise<Run> {
  const argv = [INSPECTOR_BIN, "--cli", `${url}/mcp`, "--transport", "http", "--stored-auth-only", "--format", "json", ...args];
  for (const [k, v] of Object.entries(headers)) argv.push("--header", `${k}: ${v}`);
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, ".config") };
    const child = spawn(process.execPath, argv, { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `--method tools/call --tool-name NAME --tool-args-json {…}`: the tool result, which must not be an error. */
async function callTool(home: string, url: string, headers: Record<string, string>, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await inspector(home, url, headers, ["--method", "tools/call", "--tool-name", name, "--tool-args-json", JSON.stringify(args)]);
  expect(r.code, `${name}: ${r.stderr}`).toBe(0);
  const { result } = JSON.parse(r.stdout);
  expect(result.isError ?? false, `${name}: ${r.stdout}`).toBe(false);
  return result.structuredContent;
}

describe("the MCP Inspector CLI and the auth handshake", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost;
  let memory: MemoryServices;
  let root: string;
  let home: string;
  let a: Account;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    root = await mkdtemp(path.join(tmpdir(), "cs-inspector-"));
    home = await mkdtemp(path.join(tmpdir(), "cs-inspector-home-"));
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
  });
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
    memory?.close();
    await database?.close();
    if (root) await rm(root, { recursive: true, force: true });
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("a wrong key is reported by the Inspector as invalid_credentials, not as an OAuth login", async () => {
    const r = await inspector(home, srv.url, bearer(WRONG_KEY), ["--method", "tools/list"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    // The Inspector's error envelope carries the server's answer: its JSON-RPC error and stable code.
    const { error } = JSON.parse(r.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } };
    expect(error.message).toContain('"code":"invalid_credentials"');
    // A bearer token that is not shaped like a key: the message says what a key looks like.
    expect(error.message).toContain(IDENTITY_REFUSALS.api_key_malformed.message);
    // No login was started or asked for: no OAuth prompt, no TTY request, no client registration.
    expect(r.stderr).not.toMatch(/oauth|tty|authorization server|registration|browser/i);
    expect(r.stdout + r.stderr).not.toContain(WRONG_KEY);
  });

  it("every 401 carries the Bearer challenge; the metadata it names is served and read by the SDK's discovery", async () => {
    const metadataUrl = `${srv.url}/.well-known/oauth-protected-resource`;
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    };
    const accept = { accept: "application/json, text/event-stream" };

    // A key that fails, on /mcp and on REST alike: invalid_token, and the body's real code.
    const wrong = await call(srv.url, "POST", "/mcp", { headers: { ...accept, ...bearer(WRONG_KEY) }, body: init });
    expect([wrong.status, wrong.body.error.data.code]).toEqual([401, "invalid_credentials"]);
    const challenge = wrong.headers.get("www-authenticate")!;
    expect(challenge).toBe(`Bearer realm="CodeSynapse", resource_metadata="${metadataUrl}", error="invalid_token"`);
    const rest = await call(srv.url, "GET", "/api/v1/me", { headers: bearer(WRONG_KEY) });
    expect([rest.status, rest.body.error.code, rest.headers.get("www-authenticate")]).toEqual([401, "invalid_credentials", challenge]);

    // A revoked key: the same challenge, its own code.
    const gone = await seedAccount(database.db);
    await revokeApiKey(identityStore(database.db), { prefix: gone.apiKey.slice(0, 12), at: systemClock.now() });
    const revoked = await call(srv.url, "POST", "/mcp", { headers: { ...accept, ...bearer(gone.apiKey) }, body: init });
    expect([revoked.status, revoked.body.error.data.code, revoked.headers.get("www-authenticate")]).toEqual([401, "api_key_revoked", challenge]);

    // No credential at all: initialize may proceed (MCP-2); a tool call is 401 with the bare challenge (no error code).
    const open = await call(srv.url, "POST", "/mcp", { headers: accept, body: init });
    expect(open.status).toBe(200);
    const sid = open.headers.get("mcp-session-id")!;
    const anonymous = await call(srv.url, "POST", "/mcp", {
      headers: { ...accept, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_identity", arguments: {} } },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer realm="CodeSynapse", resource_metadata="${metadataUrl}"`);
    // Statuses other than 401 carry no challenge.
    expect((await call(srv.url, "GET", "/api/v1/jobs/job_x", { headers: bearer(a.apiKey) })).headers.get("www-authenticate")).toBeNull();

    // What the SDK's OAuth-aware transport reads from the challenge, and the document it then fetches.
    const parsed = extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { "www-authenticate": challenge } }));
    expect(String(parsed.resourceMetadataUrl)).toBe(metadataUrl);
    expect(parsed.error).toBe("invalid_token");
    const doc = await discoverOAuthProtectedResourceMetadata(`${srv.url}/mcp`, { resourceMetadataUrl: metadataUrl });
    expect(doc).toEqual({ resource: srv.url, resource_name: "CodeSynapse", bearer_methods_supported: ["header"] });
    expect(doc.authorization_servers).toBeUndefined();
    // Without the hint, the SDK tries the path-suffixed variant first (RFC 9728 §3.1): its resource is /mcp.
    const suffixed = await discoverOAuthProtectedResourceMetadata(`${srv.url}/mcp`);
    expect(suffixed.resource).toBe(`${srv.url}/mcp`);
  });

  it("the right key lists every tool and calls each one through the Inspector", async () => {
    const { headers, client } = await registerThread(srv.url, a.apiKey);
    const list = await inspector(home, srv.url, headers, ["--method", "tools/list"]);
    expect(list.code, list.stderr).toBe(0);
    const names = (JSON.parse(list.stdout).result.tools as { name: string }[]).map((t) => t.name).sort();
    const called: string[] = [];
    const use = async (name: string, args: Record<string, unknown>) => {
      called.push(name);
      return callTool(home, srv.url, headers, name, args);
    };
    const repo = a.repoName;
    const triple = { subject: "AuthService", predicate: "depends_on", object: "TokenStore", subject_type: "class", object_type: "class" };

    expect(await use("get_identity", {})).toMatchObject({ tenant_id: a.orgId, subject_id: a.userId });
    const facts = (await use("upsert_session_facts", { repo, triples: [triple] })).facts as { fact_id: string }[];
    expect(facts).toHaveLength(1);
    expect((await use("read_session_memory", { repo })).facts.map((f: { fact_id: string }) => f.fact_id)).toEqual([facts[0]!.fact_id]);
    expect((await use("recall_context", { repo, query: "AuthService" })).results.length).toBeGreaterThan(0);
    expect(await use("offload_turns", { repo, turns: [{ role: "user", content: "The TokenStore caches tokens." }] })).toBeTruthy();
    expect((await use("promote_session_facts", { repo, fact_ids: [facts[0]!.fact_id] })).promoted).toHaveLength(1);
    const exported = await use("export_session_memory", { repo });
    expect(exported).toMatchObject({ facts: 1 });
    expect((await use("retract_session_fact", { repo, fact_id: facts[0]!.fact_id })).fact_id).toBe(facts[0]!.fact_id);
    expect((await use("session_fact_history", { repo, fact_id: facts[0]!.fact_id })).versions.length).toBeGreaterThan(0);
    // A second thread of the same user takes this thread's export (import fills an empty namespace).
    const second = await registerThread(srv.url, a.apiKey);
    called.push("import_session_memory");
    expect(await callTool(home, srv.url, second.headers, "import_session_memory", { repo, jsonl: exported.jsonl })).toMatchObject({ facts: 1 });
    const durableFacts = (await use("upsert_graph_triples", { repo, triples: [{ ...triple, object: "Clock" }] })).facts as { fact_id: string }[];
    expect(durableFacts).toHaveLength(1);
    const repoExport = await use("export_repository_memory", { repo });
    expect(repoExport.facts).toBeGreaterThan(0);
    expect((await use("retract_repository_fact", { repo, fact_id: durableFacts[0]!.fact_id })).fact_id).toBe(durableFacts[0]!.fact_id);
    expect((await use("repository_fact_history", { repo, fact_id: durableFacts[0]!.fact_id })).versions.length).toBe(1);
    const nodes = (await use("search_graph_nodes", { repo, query: "AuthService" })).nodes as { id: string }[];
    expect(nodes.length).toBeGreaterThan(0);
    expect((await use("query_subgraph", { repo, node_id: nodes[0]!.id })).edges.length).toBeGreaterThan(0);
    const ingest = await use("submit_ingest", { repo, path: path.join(root, "repo") });
    const ask = await use("submit_ai_task", { repo, task: "question", question: "What does AuthService depend on?" });
    expect(ingest.job_id).toMatch(/^job_/);
    expect((await use("get_job", { job_id: ask.job_id })).id).toBe(ask.job_id);
    expect((await use("list_jobs", {})).jobs.map((j: { id: string }) => j.id)).toEqual(expect.arrayContaining([ingest.job_id, ask.job_id]));
    const fix = await use("submit_fix_job", { repo, problem: "AuthService never expires tokens" });
    expect((await use("cancel_job", { job_id: fix.job_id })).id).toBe(fix.job_id);
    expect((await use("submit_embedding_refresh", { repo })).job_id).toMatch(/^job_/);
    expect(await use("index_repository_memory", { repo })).toHaveProperty("indexed");
    expect(await use("clear_session_memory", { repo })).toMatchObject({ scope: "namespace" });
    expect(await use("get_namespace_erasure", { repo })).toMatchObject({ scope: "namespace" });
    // An upload stays REST; listing and discarding it are tools.
    const up = await client.upload(repo, await fixtureTar({ "a.ts": "export const a = 1;\n" }));
    expect((await use("list_uploads", { repo })).uploads.map((u: { upload_id: string }) => u.upload_id)).toContain(up.upload_id);
    expect(await use("discard_upload", { repo, upload_id: up.upload_id })).toEqual({});

    // The erasure receipt of an ended thread, read from a live one of the same user.
    const ended = await registerThread(srv.url, a.apiKey);
    await ended.client.revoke();
    expect(await use("get_session_erasure", { session_id: ended.session })).toMatchObject({ session_id: ended.session, cause: "revoked" });
    // Last, as it erases this thread's durable facts and the graph nodes only they used.
    expect(await use("forget_session_writes", { repo, session_id: (await use("get_identity", {})).session_id })).toMatchObject({ scope: "promoted" });
    // The repository's memory is empty again (its code graph stays): the earlier export goes back in.
    expect(await use("import_repository_memory", { repo, jsonl: repoExport.jsonl })).toMatchObject({ facts: repoExport.facts });

    expect([...new Set(called)].sort()).toEqual(names);
  }, 600_000);
});

/**
 * MCP Tasks (`io.modelcontextprotocol/tasks`, protocol revision 2026-07-28) on the durable job rows:
 *
 *   - in-process, PGlite and real worker pools: a submitting tool answers a task whose id is the
 *     job's row; tasks/get answers `working`, then `completed` with the tool's CallToolResult; the
 *     completed task is read again from a new app on the same database (a restart); another
 *     session of the same user and another user get "not found"; without the extension the same
 *     tool answers `{job_id}`;
 *   - two real `codesynapse serve` processes on one PostgreSQL database (no worker pools, so a job
 *     stays queued): a task created on one node is read on the other, refused to another session
 *     there, cancelled there, and read cancelled from a node started after the first one stopped.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../../db/database";
import { buildMemoryServices } from "../../main/memory";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { waitFor } from "../support/jobs";
import { cleanEnv, startServer, type Started } from "../support/process";
import { describeWithService, probeService } from "../support/services";
import { identityStore } from "../../db/sql/identity/store";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const status = await probeService("postgres");

/** One raw 2026-07-28 request to `base`/mcp, as an SDK v2 client sends it (envelope, standard headers); its JSON-RPC answer. */
async function modern(base: string, headers: Record<string, string>, method: string, params: Record<string, unknown>, opts: { tasks?: boolean } = {}): Promise<any> {
  const name = method === "tools/call" ? (params.name as string) : method.startsWith("tasks/") ? (params.taskId as string) : undefined;
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "0" },
        "io.modelcontextprotocol/clientCapabilities": opts.tasks === false ? {} : { extensions: { [TASKS]: {} } },
      },
    },
  };
  const r = await call(base, "POST", "/mcp", {
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": method, ...(name ? { "mcp-name": name } : {}), ...headers },
    body,
  });
  const data = r.text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : r.text);
}

describe("MCP tasks on job rows (in-process, PGlite, worker pools)", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost;
  let memory: MemoryServices;
  let root: string;
  let a: Account;
  let b: Account;
  let ctx: ReturnType<typeof testContext>;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    root = await mkdtemp(path.join(tmpdir(), "cs-mcp-tasks-"));
    ctx = testContext(database.db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    memory = buildMemoryServices(ctx.config, database.db, systemClock, ctx.logger);
    const ref: { queue?: JobQueue } = {};
    th = await startTestHost(database, jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), { stores: { repository: memory.repository.store } });
    ref.queue = { db: database.db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    ctx.memory = memory;
    ctx.jobs = ref.queue;
    srv = await listen(createApp(ctx));
    a = await seedAccount(database.db);
    b = await seedAccount(database.db, { orgId: a.orgId, repoId: a.repoId });
    await writeFixtureRepo(path.join(root, "repo"));
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
    memory?.close();
    await database?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("a task is the job: created, polled to completion, read after a restart, and not found for anyone else", async () => {
    const { headers, session } = await registerThread(srv.url, a.apiKey);
    const created = await modern(srv.url, headers, "tools/call", { name: "submit_ingest", arguments: { repo: a.repoName, path: path.join(root, "repo") } });
    const task = created.result;
    expect(task).toMatchObject({ resultType: "task", status: "working", ttlMs: null });
    expect(task.taskId).toMatch(/^job_[0-9a-f]{32}$/);
    // The task id is the job row's, and the row is this thread's.
    const row = await database.db.selectFrom("jobs").select(["id", "kind", "session_id"]).where("id", "=", task.taskId).executeTakeFirstOrThrow();
    expect(row).toEqual({ id: task.taskId, kind: "ingest.snapshot", session_id: session });

    const seen = new Set<string>();
    const done = await waitFor(async () => {
      const r = (await modern(srv.url, headers, "tasks/get", { taskId: task.taskId })).result;
      seen.add(r.status);
      return r.status === "working" ? undefined : r;
    }, 60_000);
    expect(done).toMatchObject({ resultType: "complete", taskId: task.taskId, status: "completed" });
    expect(done.result.isError ?? false, JSON.stringify(done.result)).toBe(false);
    expect(done.result.structuredContent).toMatchObject({ job_id: task.taskId, job: { id: task.taskId, status: "succeeded", kind: "ingest.snapshot" } });

    // Another session of the same user, and another user of the organisation: "not found", never the task.
    const other = await registerThread(srv.url, a.apiKey);
    for (const h of [other.headers, (await registerThread(srv.url, b.apiKey)).headers]) {
      const r = await modern(srv.url, h, "tasks/get", { taskId: task.taskId });
      expect(r.result).toBeUndefined();
      expect(r.error.data.code).toBe("job_not_found");
      expect(JSON.stringify(r)).not.toContain(task.taskId);
      expect((await modern(srv.url, h, "tasks/cancel", { taskId: task.taskId })).error.data.code).toBe("job_not_found");
    }
    // Without the execution headers: no task work at all.
    const anon = await call(srv.url, "POST", "/mcp", { headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tasks/get", "mcp-name": task.taskId }, body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: task.taskId, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "x", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} } } } });
    expect(anon.status).toBe(401);

    // A restart: a new app on the same database answers the same completed task.
    await srv.close();
    srv = await listen(createApp(ctx));
    const again = (await modern(srv.url, headers, "tasks/get", { taskId: task.taskId })).result;
    expect(again).toMatchObject({ status: "completed", result: { structuredContent: { job_id: task.taskId, job: { status: "succeeded" } } } });
    expect((await modern(srv.url, headers, "tasks/update", { taskId: task.taskId, inputResponses: {} })).result).toMatchObject({ resultType: "complete" });
  }, 120_000);

  it("without the extension the submitting tools answer {job_id}; a finished job's cancel leaves the task as it was", async () => {
    const { headers } = await registerThread(srv.url, a.apiKey);
    const plain = await modern(srv.url, headers, "tools/call", { name: "submit_ai_task", arguments: { repo: a.repoName, task: "summary" } }, { tasks: false });
    expect(plain.result.resultType).toBe("complete");
    expect(plain.result.structuredContent.job_id).toMatch(/^job_/);
    const id = plain.result.structuredContent.job_id as string;
    const end = await waitFor(async () => {
      const r = (await modern(srv.url, headers, "tasks/get", { taskId: id })).result;
      return r.status === "working" ? undefined : r;
    }, 60_000);
    expect(end.status).toBe("completed");
    expect((await modern(srv.url, headers, "tasks/cancel", { taskId: id })).result).toMatchObject({ resultType: "complete" });
    expect((await modern(srv.url, headers, "tasks/get", { taskId: id })).result.status).toBe("completed");
  }, 120_000);
});

describeWithService(status, "MCP tasks on two API nodes and across a restart [postgres]", () => {
  const dbName = `cs_mcptask_${randomBytes(5).toString("hex")}`;
  let database: OpenDatabase;
  let env: NodeJS.ProcessEnv;
  let nodes: Started[] = [];
  let a: Account;

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
    database = await openDatabase({ url: u.toString(), poolSize: 4 });
    await migrateToLatest(database.db);
    a = await seedAccount(database.db);
    env = cleanEnv({ DATABASE_URL: u.toString(), LOG_LEVEL: "info", INGEST_ALLOWED_ROOTS: tmpdir() });
    nodes = await Promise.all([startServer(["serve"], env), startServer(["serve"], env)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await database?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
  }, 60_000);

  it("created on one node, read and cancelled on the other, refused to another session, read after the first node is replaced", async () => {
    const { headers } = await registerThread(nodes[0]!.url, a.apiKey);
    const created = (await modern(nodes[0]!.url, headers, "tools/call", { name: "submit_embedding_refresh", arguments: { repo: a.repoName } })).result;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const id = created.taskId as string;

    const onOther = (await modern(nodes[1]!.url, headers, "tasks/get", { taskId: id })).result;
    expect(onOther).toMatchObject({ taskId: id, status: "working", statusMessage: "job queued" });
    const stranger = await registerThread(nodes[1]!.url, a.apiKey);
    expect((await modern(nodes[1]!.url, stranger.headers, "tasks/get", { taskId: id })).error.data.code).toBe("job_not_found");

    expect((await modern(nodes[1]!.url, headers, "tasks/cancel", { taskId: id })).result).toMatchObject({ resultType: "complete" });
    const row = await database.db.selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("canceled");

    // The node that created the task stops; a node started afterwards reads the row.
    await nodes[0]!.stop();
    nodes[0] = await startServer(["serve"], env);
    expect((await modern(nodes[0]!.url, headers, "tasks/get", { taskId: id })).result).toMatchObject({ taskId: id, status: "cancelled" });
  }, 240_000);
});

/**
 * MCP task status notifications (`notifications/tasks` on `subscriptions/listen`, protocol revision
 * 2026-07-28), in-process on PGlite with real worker pools started only after the listener is open
 * (so the job is surely queued when the stream starts):
 *   - a listener for its own task receives the acknowledgement naming it, `working`, then
 *     `completed` with the tool's result, then the listen's result (the stream ends);
 *   - a listener of another session of the same user, and one of another user, naming that task:
 *     the acknowledgement names no task, no `notifications/tasks` arrives, the task id never appears;
 *   - a client that goes away releases its watches; too many task ids, and too many listeners of
 *     one session, are refused before the stream opens.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { MCP_LISTEN_MAX_TASKS, MCP_LISTENERS_PER_IDENTITY } from "../../core/limits";
import type { MemoryServices } from "../../core/memory/services";
import { buildMemoryServices } from "../../main/memory";
import { PostgresDispatcher } from "../../queues/dispatch/postgres";
import { JobRegistry } from "../../queues/registry";
import type { JobQueue } from "../../queues/submit";
import type { JobHandler } from "../../workers/handler";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const SUB = "io.modelcontextprotocol/subscriptionId";

const envelope = (tasks = true) => ({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "notify-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { [TASKS]: {} } } : {},
});
const mcpHeaders = (method: string, name?: string) => ({
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});

async function toolCall(base: string, headers: Record<string, string>, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await call(base, "POST", "/mcp", { headers: { ...mcpHeaders("tools/call", name), ...headers }, body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: envelope() } } });
  const data = r.text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : r.text);
}

/** An open `subscriptions/listen` stream: the messages read so far, and when it ends. */
interface Listener {
  status: number;
  messages: any[];
  ended: Promise<void>;
  body?: any;
  close(): void;
}

async function listenTasks(base: string, headers: Record<string, string>, taskIds: string[], id: number | string = 7): Promise<Listener> {
  const abort = new AbortController();
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders("subscriptions/listen"), ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { taskIds }, _meta: envelope() } }),
    signal: abort.signal,
  });
  const l: Listener = { status: res.status, messages: [], ended: Promise.resolve(), close: () => abort.abort() };
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    l.body = await res.json();
    return l;
  }
  l.ended = (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = frame.split("\n").find((x) => x.startsWith("data: "));
          if (data) l.messages.push(JSON.parse(data.slice(6)));
        }
      }
    } catch (err) {
      if ((err as Error).name !== "AbortError") throw err;
    }
  })();
  return l;
}

describe("MCP task notifications over subscriptions/listen (in-process, PGlite, worker pools)", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let th: TestHost | undefined;
  let memory: MemoryServices;
  let root: string;
  let a: Account;
  let b: Account;
  let ctx: ReturnType<typeof testContext>;
  let handlers: JobHandler[];

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    root = await mkdtemp(path.join(tmpdir(), "cs-mcp-notify-"));
    ctx = testContext(database.db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    memory = buildMemoryServices(ctx.config, database.db, systemClock, ctx.logger);
    // Submission only, no worker yet: a job stays queued until the test starts the pools.
    const ref: { queue?: JobQueue } = {};
    handlers = jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! });
    const registry = new JobRegistry<JobHandler>();
    for (const h of handlers) registry.register(h);
    ref.queue = { db: database.db, identity: identityStore, clock: systemClock, registry, dispatcher: new PostgresDispatcher(database.db) };
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

  it("a listener receives working then completed for its own task, and nothing for another session's or user's", async () => {
    const { headers } = await registerThread(srv.url, a.apiKey);
    const created = (await toolCall(srv.url, headers, "submit_ingest", { repo: a.repoName, path: path.join(root, "repo") })).result;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const id = created.taskId as string;

    const mine = await listenTasks(srv.url, headers, [id], "sub-1");
    expect(mine.status).toBe(200);
    // Another session of the same user, and another user of the organisation, ask for the same task.
    const otherSession = await listenTasks(srv.url, (await registerThread(srv.url, a.apiKey)).headers, [id]);
    const otherUser = await listenTasks(srv.url, (await registerThread(srv.url, b.apiKey)).headers, [id, "job_00000000000000000000000000000000"]);
    for (const l of [otherSession, otherUser]) {
      await l.ended; // nothing of theirs to follow: acknowledged with no task, then the listen's result
      expect(l.messages[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [] } } });
      expect(l.messages.filter((m) => m.method === "notifications/tasks")).toEqual([]);
      expect(l.messages.at(-1)).toMatchObject({ id: 7, result: { resultType: "complete" } });
      expect(JSON.stringify(l.messages)).not.toContain(id);
    }

    // The job is queued (no worker yet): the stream says working; then the pools start and run it.
    await waitFor(async () => (mine.messages.some((m) => m.method === "notifications/tasks") ? true : undefined), 10_000);
    th = await startTestHost(database, handlers, { stores: { repository: memory.repository.store } });
    await Promise.race([mine.ended, new Promise((_, reject) => setTimeout(() => reject(new Error("the stream did not end")), 60_000))]);

    expect(mine.messages[0]).toEqual({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [id] }, _meta: { [SUB]: "sub-1" } } });
    const notes = mine.messages.filter((m) => m.method === "notifications/tasks").map((m) => m.params);
    expect(notes.every((p) => p.taskId === id && p._meta[SUB] === "sub-1")).toBe(true);
    const statuses = notes.map((p) => p.status);
    expect(statuses[0]).toBe("working");
    expect(statuses.at(-1)).toBe("completed");
    expect(statuses.slice(0, -1).every((s) => s === "working")).toBe(true);
    const done = notes.at(-1);
    expect(done.result.isError ?? false, JSON.stringify(done.result)).toBe(false);
    expect(done.result.structuredContent).toMatchObject({ job_id: id, job: { id, status: "succeeded" } });
    // The notification is the task as tasks/get answers it.
    const got = await call(srv.url, "POST", "/mcp", { headers: { ...mcpHeaders("tasks/get", id), ...headers }, body: { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: id, _meta: envelope() } } });
    const gotTask = JSON.parse(got.text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) ?? got.text).result;
    const { _meta: _m, ...note } = done;
    const { _meta: _g, resultType: _r, ...task } = gotTask;
    // What follows the ingest goes on after it ended: its follow-up jobs run and its repository's recall
    // becomes complete. The rest of the notification is the task as it was; those two only move forward.
    for (const t of [note, task]) expect(JSON.parse(t.result.content[0].text)).toEqual(t.result.structuredContent);
    const settled = (t: any) => ({ ...t, result: { ...t.result, content: "(the text of structuredContent)", structuredContent: { ...t.result.structuredContent, job: { ...t.result.structuredContent.job, recall: "(moves on)", follow_ups: t.result.structuredContent.job.follow_ups.map((f: any) => ({ ...f, status: "(moves on)" })) } } } });
    expect(settled(note)).toEqual(settled(task));
    const order = ["partial", "complete"];
    expect(order.indexOf(task.result.structuredContent.job.recall)).toBeGreaterThanOrEqual(order.indexOf(note.result.structuredContent.job.recall));
    expect(mine.messages.at(-1)).toMatchObject({ jsonrpc: "2.0", id: "sub-1", result: { resultType: "complete", _meta: { [SUB]: "sub-1" } } });
    expect(ctx.jobEvents?.watcher.size ?? 0).toBe(0);
  }, 120_000);

  it("a client that goes away releases its watches; too many task ids or listeners are refused before the stream", async () => {
    await th?.stop(); // no worker: the next job stays queued while it is listened to
    th = undefined;
    const { headers } = await registerThread(srv.url, a.apiKey);
    const id = (await toolCall(srv.url, headers, "submit_embedding_refresh", { repo: a.repoName })).result.taskId as string;
    expect(id).toMatch(/^job_/);

    const open: Awaited<ReturnType<typeof listenTasks>>[] = [];
    for (let i = 0; i < MCP_LISTENERS_PER_IDENTITY; i++) open.push(await listenTasks(srv.url, headers, [id], i));
    expect(open.every((l) => l.status === 200)).toBe(true);
    await waitFor(async () => (open.every((l) => l.messages.length >= 2) ? true : undefined), 10_000);
    expect(ctx.jobEvents?.watcher.size).toBe(MCP_LISTENERS_PER_IDENTITY);
    const over = await listenTasks(srv.url, headers, [id]);
    expect(over.body?.error?.data?.code).toBe("limit_exceeded");
    const tooMany = await listenTasks(srv.url, (await registerThread(srv.url, a.apiKey)).headers, Array.from({ length: MCP_LISTEN_MAX_TASKS + 1 }, (_, i) => `job_${String(i).padStart(32, "0")}`));
    expect(tooMany.body?.error?.data?.code).toBe("validation_failed");
    // Without the execution headers: refused, nothing held.
    const anon = await fetch(`${srv.url}/mcp`, { method: "POST", headers: mcpHeaders("subscriptions/listen"), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { taskIds: [id] }, _meta: envelope() } }) });
    expect(anon.status).toBe(401);

    for (const l of open) l.close();
    await waitFor(async () => ((ctx.jobEvents?.watcher.size ?? 0) === 0 ? true : undefined), 10_000);
    // The session's listeners were returned: a new one opens.
    const again = await listenTasks(srv.url, headers, [id]);
    expect(again.status).toBe(200);
    again.close();
    await waitFor(async () => ((ctx.jobEvents?.watcher.size ?? 0) === 0 ? true : undefined), 10_000);
  }, 120_000);
});

/**
 * MCP job tools end to end: `submit_ingest` and `submit_ai_task` through the
 * SDK's Client over Streamable HTTP, real worker pools in-process, then
 * `get_job` for the results — the same submitRepoJob as the REST routes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { seedAccount } from "../support/fixtures";
import { listen, registerThread, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

await describeEachDatabase("MCP job tools", (t) => {
  let srv: TestServer;
  let th: TestHost;
  let memory: MemoryServices;
  let root: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-mcp-allowed-"));
    const ctx = testContext(t().db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    memory = buildMemoryServices(ctx.config, t().db, systemClock, ctx.logger);
    const ref: { queue?: JobQueue } = {};
    th = await startTestHost(t(), jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), { stores: { repository: memory.repository.store } });
    ref.queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    ctx.memory = memory;
    ctx.jobs = ref.queue;
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await srv?.close();
    await th?.stop();
    memory?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("submit_ingest then submit_ai_task, polled with get_job, run as the calling thread", async () => {
    const a = await seedAccount(t().db);
    const { session, headers } = await registerThread(srv.url, a.apiKey);
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
      requestInit: { headers },
    });
    const client = new Client({ name: "test", version: "0" });
    clients.push(client);
    await client.connect(transport);
    const tool = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      return r as { isError?: boolean; structuredContent: any };
    };
    const finished = (id: string) =>
      waitFor(async () => {
        const r = await tool("get_job", { job_id: id });
        return ["succeeded", "failed", "refused"].includes(r.structuredContent.status) ? r.structuredContent : undefined;
      }, 30_000);

    const dir = path.join(root, "repo");
    await writeFixtureRepo(dir);
    const ing = await tool("submit_ingest", { repo: a.repoName, path: dir });
    expect(ing.isError ?? false).toBe(false);
    expect((await finished(ing.structuredContent.job_id)).status).toBe("succeeded");

    const refused = await tool("submit_ingest", { repo: a.repoName, path: "/etc" });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error.code).toBe("forbidden");
    expect(JSON.stringify(refused)).not.toContain("/etc");

    const ai = await tool("submit_ai_task", { repo: a.repoName, task: "question", question: "what does AuthService contain?" });
    const job = await finished(ai.structuredContent.job_id);
    expect(job.status).toBe("succeeded");
    expect(job.result.provider).toBe("local");
    expect(job.result.answer).toContain("src/auth.ts#AuthService contains");
    const row = await t().db.selectFrom("jobs").select(["session_id", "parent_session_id"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ session_id: session, parent_session_id: session });
  });
});

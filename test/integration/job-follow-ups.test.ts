/**
 * What follows from an ingest, over the real runner and stores on PGlite and PostgreSQL: its view
 * (`GET /api/v1/jobs/{id}`, the list, the `get_job` tool) lists the embedding jobs it started and
 * says whether the repository's recall is complete; an embedding refresh lists its whole chain of
 * batches. An AI task asked while the embeddings are still being built either waits for them
 * (bounded by AI_RECALL_WAIT_MS, ended by a cancel) or answers with `recall: "partial"` and says so.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { systemClock } from "../../core/clock";
import { EMBEDDING_KIND } from "../../core/jobs/embedding";
import type { MemoryServices } from "../../core/memory/services";
import { buildMemoryServices } from "../../main/memory";
import type { JobView } from "../../ops/job-view";
import type { JobRow, Pool } from "../../queues/jobs";
import type { JobQueue } from "../../queues/submit";
import { PARTIAL_RECALL_NOTE } from "../../workers/pools/ai";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { call, executionHeaders, listen, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);

await describeEachDatabase("follow-up jobs and partial recall", (t) => {
  let root: string;
  let dir: string;
  let ctx: AppContext;
  let memory: MemoryServices;
  let srv: TestServer;
  let queue: JobQueue;
  const hosts: TestHost[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-follow-ups-"));
    dir = path.join(root, "repo");
    await writeFixtureRepo(dir);
    ctx = testContext(t().db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    memory = buildMemoryServices(ctx.config, t().db, systemClock, ctx.logger);
    ctx.memory = memory;
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await srv?.close();
    for (const h of hosts) await h.stop();
    memory?.close();
    await rm(root, { recursive: true, force: true });
  });

  /** Worker pools over the test database: only `pools` run (a pool left out keeps its jobs queued). */
  async function start(pools: Pool[], env: Record<string, string> = {}): Promise<TestHost> {
    const config = testContext(t().db, { env: { INGEST_ALLOWED_ROOTS: root, ...env } }).config;
    const host = await startTestHost(t(), jobKindHandlers({ config, stores: ctx.stores, memory, queue: () => queue }), { pools, stores: { repository: memory.repository.store } });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: host.registry, dispatcher: host.dispatcher };
    ctx.jobs = queue;
    hosts.push(host);
    return host;
  }
  async function stop(host: TestHost): Promise<void> {
    await host.stop();
    hosts.splice(hosts.indexOf(host), 1);
  }
  const headersOf = (e: Execution) => executionHeaders(e.account.apiKey, e.identity.session_id);
  async function submit(e: Execution, suffix: string, body: unknown): Promise<string> {
    const r = await call(srv.url, "POST", `/api/v1/repos/${e.account.repoName}${suffix}`, { headers: headersOf(e), body });
    expect(r.status, r.text).toBe(202);
    return (r.body as { job_id: string }).job_id;
  }
  async function view(e: Execution, id: string): Promise<JobView> {
    const r = await call(srv.url, "GET", `/api/v1/jobs/${id}`, { headers: headersOf(e) });
    expect(r.status, r.text).toBe(200);
    return r.body as JobView;
  }
  async function settle(id: string, timeoutMs = 60_000): Promise<JobRow> {
    return waitFor(async () => {
      const r = await jobRow(t().db, id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, timeoutMs);
  }
  type AiResult = { answer: string; recall: string };

  it("an ingest's view lists its embedding follow-ups and says recall is partial until they have run (REST, the list, get_job)", async () => {
    const e = await seedExecution(t().db, systemClock);
    const work = await start(["ingest", "ai"], { AI_RECALL_WAIT_MS: "1500" });
    try {
      const ingest = await submit(e, "/ingest", { path: dir });
      expect((await settle(ingest)).status).toBe("succeeded");
      const emb = await t().db.selectFrom("jobs").selectAll().where("repo_id", "=", e.account.repoId).where("kind", "=", EMBEDDING_KIND).executeTakeFirstOrThrow();

      // Embeddings not built yet (no embedding pool runs): the follow-up is queued, recall partial.
      const before = await view(e, ingest);
      expect(before.follow_ups).toEqual([{ job_id: emb.id, kind: EMBEDDING_KIND, status: "queued" }]);
      expect(before.recall).toBe("partial");
      const listed = await call(srv.url, "GET", "/api/v1/jobs", { headers: headersOf(e) });
      const inList = (listed.body as { jobs: JobView[] }).jobs.find((j) => j.id === ingest)!;
      expect([inList.follow_ups, inList.recall]).toEqual([before.follow_ups, "partial"]);
      const client = new Client({ name: "test", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: headersOf(e) } }));
      try {
        const tool = (await client.callTool({ name: "get_job", arguments: { job_id: ingest } })) as { structuredContent: JobView };
        expect([tool.structuredContent.follow_ups, tool.structuredContent.recall]).toEqual([before.follow_ups, "partial"]);
      } finally {
        await client.close();
      }

      // Asked now: the task waits its 1.5 s for the embeddings (nothing builds them), then answers and says its recall was partial.
      const early = await settle(await submit(e, "/ai-tasks", { task: "question", question: "where is verifyToken?" }));
      expect(early.status).toBe("succeeded");
      expect(early.finished_at!.getTime() - early.started_at!.getTime()).toBeGreaterThanOrEqual(1_400);
      const partial = early.result as AiResult;
      expect(partial.recall).toBe("partial");
      expect(partial.answer.endsWith(PARTIAL_RECALL_NOTE)).toBe(true);

      // The embedding pool runs the follow-up: the ingest's view says so, and recall is complete.
      await start(["embedding"]);
      expect((await settle(emb.id)).status).toBe("succeeded");
      const after = await view(e, ingest);
      expect(after.follow_ups).toEqual([{ job_id: emb.id, kind: EMBEDDING_KIND, status: "succeeded" }]);
      expect(after.recall).toBe("complete");
      const late = (await settle(await submit(e, "/ai-tasks", { task: "question", question: "where is verifyToken?" }))).result as AiResult;
      expect(late.recall).toBe("complete");
      expect(late.answer).not.toContain(PARTIAL_RECALL_NOTE);

      // Jobs that build no recall say nothing of it; a job that started nothing lists nothing.
      const ai = await view(e, early.id);
      expect([ai.follow_ups, ai.recall]).toEqual([[], null]);
    } finally {
      await stop(work);
      for (const h of [...hosts]) await stop(h);
    }
  }, 120_000);

  it("an embedding refresh in small batches lists its whole chain of follow-ups, each batch's next one", async () => {
    const e = await seedExecution(t().db, systemClock);
    const work = await start(["ingest", "embedding"]);
    try {
      const ingest = await submit(e, "/ingest", { path: dir });
      expect((await settle(ingest)).status).toBe("succeeded");
      await waitFor(async () => (await view(e, ingest)).recall === "complete", 60_000, 100);
      // Another model's vectors do not count: every node is missing one again.
      await t().db.updateTable("repo_nodes").set({ embedding_model: "an-older-model" }).where("repo_id", "=", e.account.repoId).execute();
      const refresh = await submit(e, "/embeddings/refresh", { batch: 8, max_batches: 1 });
      const done = await waitFor(async () => {
        const v = await view(e, refresh);
        return v.recall === "complete" && v.follow_ups.every((f) => f.status === "succeeded") ? v : undefined;
      }, 90_000, 100);
      const chain = await t().db.selectFrom("jobs").select(["id", "origin_job_id"]).where("repo_id", "=", e.account.repoId).where("kind", "=", EMBEDDING_KIND).where("created_at", ">", (await jobRow(t().db, refresh)).created_at).orderBy("created_at").orderBy("id").execute();
      expect(chain.length).toBeGreaterThan(2);
      expect(chain.every((c) => c.origin_job_id === refresh)).toBe(true);
      expect(done.follow_ups.map((f) => f.job_id)).toEqual(chain.map((c) => c.id).slice(-20));
    } finally {
      await stop(work);
    }
  }, 180_000);

  it("an AI task waits for embeddings still being built, bounded and ended by a cancel", async () => {
    const e = await seedExecution(t().db, systemClock);
    const work = await start(["ingest", "ai"], { AI_RECALL_WAIT_MS: "30000" });
    try {
      const ingest = await submit(e, "/ingest", { path: dir });
      expect((await settle(ingest)).status).toBe("succeeded");
      expect((await view(e, ingest)).recall).toBe("partial");

      // A waiting task ends at once when canceled, well before its wait runs out.
      const canceled = await submit(e, "/ai-tasks", { task: "summary" });
      await waitFor(async () => (await jobRow(t().db, canceled)).status === "running", 10_000);
      const asked = Date.now();
      expect((await call(srv.url, "POST", `/api/v1/jobs/${canceled}/cancel`, { headers: headersOf(e) })).status).toBe(202);
      expect((await settle(canceled, 10_000)).status).toBe("canceled");
      expect(Date.now() - asked).toBeLessThan(10_000);

      // A task asked before the embeddings waits for them, and answers with complete recall once they are in.
      const waiting = await submit(e, "/ai-tasks", { task: "question", question: "where is verifyToken?" });
      await waitFor(async () => (await jobRow(t().db, waiting)).status === "running", 10_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await jobRow(t().db, waiting)).status).toBe("running");
      await start(["embedding"]);
      const answered = await settle(waiting, 40_000);
      expect(answered.status).toBe("succeeded");
      expect((answered.result as AiResult).recall).toBe("complete");
      expect((answered.result as AiResult).answer).not.toContain(PARTIAL_RECALL_NOTE);
      expect((await view(e, ingest)).recall).toBe("complete");
    } finally {
      await stop(work);
      for (const h of [...hosts]) await stop(h);
    }
  }, 120_000);
});

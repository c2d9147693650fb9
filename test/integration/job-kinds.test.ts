/**
 * The user job kinds (WRK-2..5) over real stores and the real runner, on
 * PGlite and PostgreSQL: ingest of a fixture repository into the code graph,
 * the embedding refresh it enqueues (same primary session), path refusals,
 * AI tasks through the LLM registry, fix proposals as unified diffs.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import type { Config } from "../../core/config";
import { ExecutionContext, runInExecution } from "../../core/execution/context";
import { LOCAL_LABEL } from "../../core/llm/local";
import { buildLlmRegistry } from "../../core/llm/registry";
import { silentLogger } from "../../core/log";
import { repoNodeId } from "../../core/memory/ids";
import type { MemoryServices } from "../../core/memory/services";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue } from "../../queues/submit";
import { AI_KIND } from "../../core/jobs/ai";
import { aiHandler } from "../../workers/pools/ai";
import { EMBEDDING_KIND } from "../../core/jobs/embedding";
import { FIX_KIND } from "../../core/jobs/fix";
import { fixHandler } from "../../workers/pools/fix";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { bearer, call, listen, registerThread } from "../support/http";
import { FIXTURE_FILES, writeFixtureRepo } from "../support/fixture-repo";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);

await describeEachDatabase("job kinds: ingest, embedding, ai, fix", (t) => {
  let th: TestHost;
  let memory: MemoryServices;
  let config: Config;
  let queue: JobQueue;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "cs-allowed-"));
    outside = await mkdtemp(path.join(tmpdir(), "cs-outside-"));
    config = testContext(t().db, { env: { INGEST_ALLOWED_ROOTS: root } }).config;
    memory = buildMemoryServices(config, t().db, systemClock, silentLogger());
    th = await startTestHost(t(), jobKindHandlers({ config, stores: relationalStores(t().db), memory, queue: () => queue }), { stores: { repository: memory.repository.store } });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
  });
  afterAll(async () => {
    await th?.stop();
    memory?.close();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  async function submit(e: Execution, kind: string, params: unknown): Promise<JobRow> {
    return submitJob(queue, e.identity, e.principal, { kind, params, repo: e.account.repoId });
  }
  async function settle(id: string): Promise<JobRow> {
    return waitFor(async () => {
      const r = await jobRow(t().db, id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
  }
  async function fixture(name: string, files = FIXTURE_FILES): Promise<string> {
    const dir = path.join(root, name);
    await writeFixtureRepo(dir, files);
    return dir;
  }
  const nodeId = (e: Execution, type: string, name: string) => repoNodeId(e.account.repoId, type, name);

  it("ingest builds the code graph (files, symbols, contains, imports) with the job's session as origin, then an embedding job with the same session", async () => {
    const e = await seedExecution(t().db, systemClock);
    const dir = await fixture("graph");
    const job = await submit(e, INGEST_KIND, { path: dir });
    const done = await settle(job.id);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    const result = done.result as { files: number; symbols: number; imports: number; truncated: boolean };
    expect(result.files).toBe(Object.keys(FIXTURE_FILES).length);
    expect(result.truncated).toBe(false);
    const store = memory.repository.store;
    const repoId = e.account.repoId;

    const auth = await store.querySubgraph(repoId, nodeId(e, "code.file", "src/auth.ts"), 1, 100);
    const names = new Map(auth.nodes.map((n) => [n.id, n]));
    const edges = auth.edges.map((x) => `${names.get(x.src)?.name} -${x.predicate}-> ${names.get(x.dst)?.name}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        `${e.account.repoName} -contains-> src/auth.ts`,
        "src/auth.ts -contains-> src/auth.ts#AuthService",
        "src/auth.ts -contains-> src/auth.ts#hashPassword",
        "src/auth.ts -imports-> src/store.ts",
        "src/auth.ts -imports-> src/clock.ts",
      ]),
    );
    for (const n of auth.nodes) expect(n.label).toBe("Node");
    for (const x of auth.edges) expect(x.origin_session_id).toBe(e.identity.session_id);
    for (const n of auth.nodes) expect(n.origin_session_id).toBe(e.identity.session_id);

    const cls = await store.querySubgraph(repoId, nodeId(e, "code.class", "src/auth.ts#AuthService"), 1, 100);
    const members = cls.nodes.map((n) => `${n.type} ${n.name}`);
    expect(members).toEqual(expect.arrayContaining(["code.method src/auth.ts#AuthService.verifyToken", "code.method src/auth.ts#AuthService.revoke", "code.method src/auth.ts#AuthService.constructor"]));

    // Python, Go and Java symbols and their resolvable imports.
    const expectEdge = async (fromType: string, from: string, predicate: string, toType: string, to: string) => {
      const g = await store.querySubgraph(repoId, nodeId(e, fromType, from), 1, 200);
      expect(g.edges.some((x) => x.predicate === predicate && x.src === nodeId(e, fromType, from) && x.dst === nodeId(e, toType, to)), `${from} ${predicate} ${to}`).toBe(true);
    };
    await expectEdge("code.file", "app.py", "imports", "code.file", "lib.py");
    await expectEdge("code.class", "app.py#Greeter", "contains", "code.method", "app.py#Greeter.greet");
    await expectEdge("code.file", "app.py", "contains", "code.function", "app.py#main");
    await expectEdge("code.file", "main.go", "imports", "code.file", "util/util.go");
    await expectEdge("code.class", "util/util.go#Calc", "contains", "code.method", "util/util.go#Calc.Sum");
    await expectEdge("code.file", "util/util.go", "contains", "code.function", "util/util.go#Add");
    await expectEdge("code.file", "src/main/java/com/demo/App.java", "imports", "code.file", "src/main/java/com/demo/util/Strings.java");
    await expectEdge("code.class", "src/main/java/com/demo/App.java#App", "contains", "code.method", "src/main/java/com/demo/App.java#App.count");
    await expectEdge("code.file", "src/store.ts", "contains", "code.function", "src/store.ts#makeStore");

    // The embedding refresh: a child job with the same identity, which embeds every node.
    const child = await waitFor(async () => (await t().db.selectFrom("jobs").selectAll().where("repo_id", "=", repoId).where("kind", "=", EMBEDDING_KIND).execute())[0]);
    expect(child.pool).toBe("embedding");
    expect([child.tenant_id, child.subject_id, child.session_id, child.parent_session_id]).toEqual([e.identity.tenant_id, e.identity.subject_id, e.identity.session_id, e.identity.parent_session_id]);
    expect(child.actor_user_id).toBe(e.principal.userId);
    const emb = await settle(child.id);
    expect(emb.status).toBe("succeeded");
    expect((emb.result as { indexed: number }).indexed).toBeGreaterThan(20);
    expect(await store.nodesMissingEmbedding(repoId, memory.embedder.model, 10)).toEqual([]);
    // Dense + lexical recall over the ingested graph.
    const recall = await memory.repository.recall(e.identity, repoId, { query: "verifyToken", limit: 5 });
    const seen = recall.results.map((r) => `${r.subject.name} ${r.predicate} ${r.object.name} (${r.score})`);
    expect(seen.some((x) => x.includes("verifyToken")), `recall for "verifyToken" answered:\n${seen.join("\n")}`).toBe(true);
  });

  it("re-ingest replaces the previous snapshot's code nodes; memory facts stay", async () => {
    const e = await seedExecution(t().db, systemClock);
    const dir = await fixture("reingest");
    expect((await settle((await submit(e, INGEST_KIND, { path: dir })).id)).status).toBe("succeeded");
    await memory.repository.upsertTriples(e.identity, e.account.repoId, { triples: [{ subject: "AuthService", subject_type: "concept", predicate: "owned_by", object: "team-identity" }] });
    await writeFile(path.join(dir, "src/auth.ts"), FIXTURE_FILES["src/auth.ts"]!.replace(/export function hashPassword[\s\S]*$/, "export function checkPassword(p: string): boolean {\n  return p.length > 8;\n}\n"));
    await rm(path.join(dir, "lib.py"));
    const again = await settle((await submit(e, INGEST_KIND, { path: dir })).id);
    expect(again.status).toBe("succeeded");
    expect((again.result as { pruned: { edges: number; nodes: number } }).pruned.nodes).toBeGreaterThanOrEqual(3);
    const store = memory.repository.store;
    expect(await store.searchNodes(e.account.repoId, ["hashpassword"], 10)).toEqual([]);
    expect(await store.searchNodes(e.account.repoId, ["lib.py"], 10)).toEqual([]);
    expect((await store.searchNodes(e.account.repoId, ["checkpassword"], 10)).map((n) => n.name)).toEqual(["src/auth.ts#checkPassword"]);
    expect((await store.searchNodes(e.account.repoId, ["team-identity"], 10)).length).toBe(1);
  });

  it("a path outside the allowed roots is refused without echoing it: '..', a symlink, a plain outside path", async () => {
    const e = await seedExecution(t().db, systemClock);
    await writeFixtureRepo(outside, { "secret.ts": "export const x = 1;\n" });
    await symlink(outside, path.join(root, "escape-link"));
    for (const p of [outside, path.join(root, "..", path.basename(outside)), path.join(root, "escape-link"), "relative/path"]) {
      const done = await settle((await submit(e, INGEST_KIND, { path: p })).id);
      expect(done.status).toBe("failed");
      expect(done.error_code).toBe("forbidden");
      // The reason names the setting to change, never the path.
      expect(done.error_message).toContain("INGEST_ALLOWED_ROOTS");
      expect(done.error_message).not.toContain(path.basename(outside));
      expect(JSON.stringify(done.result ?? null)).not.toContain(path.basename(outside));
    }
    expect(await memory.repository.store.searchNodes(e.account.repoId, ["secret"], 10)).toEqual([]);
  });

  it("an AI task answers from the ingested graph and the caller's session memory with the local provider; another session's facts are not used", async () => {
    const e = await seedExecution(t().db, systemClock);
    expect((await settle((await submit(e, INGEST_KIND, { path: await fixture("ai") })).id)).status).toBe("succeeded");
    const scope = { identity: e.identity, ns: e.account.repoId, expiresAt: Date.now() + 3_600_000 };
    await memory.sessions.upsert(scope, { triples: [{ subject: "verifyToken", predicate: "reviewed_by", object: "alice" }] });
    const other = await seedExecution(t().db, systemClock, { account: e.account });
    await memory.sessions.upsert({ ...scope, identity: other.identity }, { triples: [{ subject: "verifyToken", predicate: "reviewed_by", object: "mallory" }] });

    const done = await settle((await submit(e, AI_KIND, { task: "question", question: "Who reviewed verifyToken and where is verifyToken defined?" })).id);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    const r = done.result as { answer: string; provider: string; sources: Array<{ scope: string }> };
    expect(r.provider).toBe("local");
    expect(r.answer.startsWith(LOCAL_LABEL)).toBe(true);
    expect(r.answer).toContain("verifyToken reviewed by alice (session memory)");
    expect(r.answer).toContain("src/auth.ts#AuthService contains src/auth.ts#AuthService.verifyToken (repository memory)");
    expect(r.answer).not.toContain("mallory");
    expect(new Set(r.sources.map((x) => x.scope))).toEqual(new Set(["session", "repository"]));

    const summary = await settle((await submit(e, AI_KIND, { task: "summary" })).id);
    expect(summary.status).toBe("succeeded");
    expect((summary.result as { answer: string }).answer).toContain(`${e.account.repoName} contains src/auth.ts`);
  });

  it("the LLM registry refuses without an identity before provider lookup or network work; with one it calls the OpenAI-compatible endpoint", async () => {
    let hits = 0;
    let body: { model?: string; messages?: Array<{ content: string }> } = {};
    const server: Server = createServer((req, res) => {
      hits++;
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        body = JSON.parse(raw) as typeof body;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: `echo: ${body.messages?.[1]?.content.split("\n")[0]}` } }] }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const port = (server.address() as { port: number }).port;
      const registry = buildLlmRegistry({ LLM_PROVIDER: "openai", LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: "tiny", LLM_API_KEY: undefined });
      const req = { task: "question" as const, prompt: "what is x?", facts: [] };
      await expect(registry.complete(req)).rejects.toMatchObject({ code: "unauthenticated" });
      await expect(registry.complete(req, { provider: "no-such-provider" })).rejects.toMatchObject({ code: "unauthenticated" });
      const canceled = new AbortController();
      canceled.abort();
      const e = await seedExecution(t().db, systemClock);
      await expect(runInExecution(new ExecutionContext({ identity: e.identity, signal: canceled.signal }), () => registry.complete(req))).rejects.toMatchObject({ code: "canceled" });
      expect(hits).toBe(0);
      const answer = await runInExecution(new ExecutionContext({ identity: e.identity }), () => registry.complete(req));
      expect(answer).toEqual({ text: "echo: Question: what is x?", provider: "openai", model: "tiny" });
      expect(hits).toBe(1);
      expect(body.model).toBe("tiny");
    } finally {
      server.close();
    }
  });

  it("AI and fix runners refuse a missing context before reading their stores", async () => {
    const e = await seedExecution(t().db, systemClock);
    const llm = buildLlmRegistry(config);
    const row = await jobRow(t().db, (await submit(e, AI_KIND, { task: "summary" })).id);
    const base = { job: row, auth: null, signal: new AbortController().signal, db: t().db, clock: systemClock, logger: silentLogger() };
    // No recheck answer is handed here: the handlers stop before retrieval or file reads.
    await expect(aiHandler({ memory, llm, recallWaitMs: 0 }).run({ ...base, params: { task: "summary" } })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(fixHandler({ config, memory, uploads: relationalStores(t().db).uploads, llm }).run({ ...base, params: { problem: "rename a to b" } })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("a fix job proposes a unified diff that git apply accepts on the snapshot; it is never restartable", async () => {
    const e = await seedExecution(t().db, systemClock);
    const dir = await fixture("fix");
    expect((await settle((await submit(e, INGEST_KIND, { path: dir })).id)).status).toBe("succeeded");
    const job = await submit(e, FIX_KIND, { problem: "Rename verifyToken to checkToken: the name clashes with the JWT helper." });
    expect([job.restartable, job.max_attempts, job.pool]).toEqual([false, 1, "fix"]);
    const done = await settle(job.id);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    const r = done.result as { patch: string; files: string[]; provider: string };
    expect(r.provider).toBe("local");
    expect(r.files).toContain("src/auth.ts");
    expect(r.patch).toContain("-  async verifyToken(token: string): Promise<boolean> {");
    expect(r.patch).toContain("+  async checkToken(token: string): Promise<boolean> {");
    const patchFile = path.join(outside, `fix-${e.account.repoId}.diff`);
    await writeFile(patchFile, r.patch);
    const run = promisify(execFile);
    await run("git", ["apply", "--check", patchFile], { cwd: dir });
    await run("git", ["apply", patchFile], { cwd: dir });
    const applied = await readFile(path.join(dir, "src/auth.ts"), "utf8");
    expect(applied).toContain("async checkToken(token: string)");
    expect(applied).not.toContain("verifyToken");

    // A problem with no concrete edit: no patch, said so; nothing invented.
    const vague = await settle((await submit(e, FIX_KIND, { problem: "make auth better", path: dir })).id);
    expect(vague.status).toBe("succeeded");
    expect((vague.result as { patch: string | null }).patch).toBeNull();
  });

  it("submission routes: 202 {job_id} under the caller's execution, strict bodies, repository permission per kind, headers required, paths not echoed", async () => {
    const ctx = testContext(t().db, { clock: systemClock, env: { INGEST_ALLOWED_ROOTS: root } });
    ctx.memory = memory;
    ctx.jobs = queue;
    const srv = await listen(createApp(ctx));
    try {
      const a = await seedAccount(t().db);
      const { session, headers: h } = await registerThread(srv.url, a.apiKey);
      const url = (suffix: string) => `/api/v1/repos/${a.repoName}${suffix}`;
      const dir = await fixture("http");

      // No execution headers: 400 before any work, nothing enqueued.
      const bare = await call(srv.url, "POST", url("/ingest"), { headers: bearer(a.apiKey), body: { path: dir } });
      expect(bare.status).toBe(400);
      expect(await t().db.selectFrom("jobs").select("id").where("repo_id", "=", a.repoId).execute()).toEqual([]);

      const ing = await call(srv.url, "POST", url("/ingest"), { headers: h, body: { path: dir } });
      expect(ing.status).toBe(202);
      const job = await settle((ing.body as { job_id: string }).job_id);
      expect(job.status).toBe("succeeded");
      expect([job.session_id, job.parent_session_id, job.kind]).toEqual([session, session, INGEST_KIND]);
      const child = await waitFor(async () => (await t().db.selectFrom("jobs").selectAll().where("repo_id", "=", a.repoId).where("kind", "=", EMBEDDING_KIND).execute())[0]);
      expect(child.session_id).toBe(session);

      const refused = await call(srv.url, "POST", url("/ingest"), { headers: h, body: { path: outside } });
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain(outside);
      expect(refused.text).not.toContain(path.basename(outside));
      expect((await call(srv.url, "POST", url("/ingest"), { headers: h, body: { path: dir, extra: 1 } })).status).toBe(400);
      expect((await call(srv.url, "POST", url("/ai-tasks"), { headers: h, body: { task: "question" } })).status).toBe(400);

      for (const [suffix, body] of [
        ["/ai-tasks", { task: "question", question: "where is verifyToken?" }],
        ["/fix-jobs", { problem: "rename hashPassword to digestPassword" }],
        ["/embeddings/refresh", {}],
      ] as const) {
        const r = await call(srv.url, "POST", url(suffix), { headers: h, body });
        expect(r.status, suffix).toBe(202);
        const done = await settle((r.body as { job_id: string }).job_id);
        expect(done.status, `${suffix} ${JSON.stringify(done)}`).toBe("succeeded");
        expect(done.session_id).toBe(session);
      }

      // A reader may ask, not ingest.
      const reader = await seedAccount(t().db, { orgId: a.orgId, repoId: a.repoId, repoLevel: "read" });
      const { headers: rh } = await registerThread(srv.url, reader.apiKey);
      expect((await call(srv.url, "POST", url("/ai-tasks"), { headers: rh, body: { task: "summary" } })).status).toBe(202);
      const denied = await call(srv.url, "POST", url("/ingest"), { headers: rh, body: { path: dir } });
      expect([denied.status, (denied.body as { error: { code: string } }).error.code]).toEqual([403, "repo_permission_denied"]);
      expect((await call(srv.url, "POST", url("/fix-jobs"), { headers: rh, body: { problem: "x" } })).status).toBe(403);
    } finally {
      await srv.close();
    }
  });
});

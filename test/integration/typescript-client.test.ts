/**
 * @codesynapse/client against the real app and real worker pools: the README's
 * example as written, registration and revocation, typed refusals carrying the
 * platform's stable codes, snapshot upload + ingest + waitForJob, and the
 * secrets (API key, session ID) absent from everything the client shows.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { inspect } from "node:util";
import path from "node:path";
import { CodeSynapseClient, CodeSynapseError, connect } from "@codesynapse/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import type { MemoryServices } from "../../core/memory/services";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { fixtureTar } from "../support/archives";
import { describeEachDatabase } from "../support/databases";
import { FIXTURE_FILES } from "../support/fixture-repo";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { ingestArchive, listen, threadClient, type TestServer } from "../support/http";
import { startTestHost } from "../support/job-host";
import { identityStore } from "../../db/sql/identity/store";

const ROOT = path.resolve(import.meta.dirname, "../..");
const README = path.join(ROOT, "clients/typescript/README.md");

/** The README's first ```ts block, run as a file inside the checkout (so the package resolves as a runtime's would). */
function runReadmeExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(README, "utf8"))?.[1];
  if (!block) throw new Error("no ```ts block in the client's README");
  const dir = path.join(ROOT, "test/artifacts", `client-readme-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "example.ts");
  writeFileSync(file, block);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += String(c)));
    child.stderr.on("data", (c) => (stderr += String(c)));
    child.on("error", reject);
    child.on("exit", (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

/** The error a promise rejects with (a test failure if it resolves). */
async function refusal(p: Promise<unknown>): Promise<CodeSynapseError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodeSynapseError);
  return err as CodeSynapseError;
}

await describeEachDatabase("@codesynapse/client", (t) => {
  let srv: TestServer;
  let memory: MemoryServices;
  let stopHost: () => Promise<void>;

  beforeAll(async () => {
    // The embedding pool is left out on purpose: an embedding refresh stays queued (the wait tests), and an
    // AI task does not wait for embeddings nothing here builds (AI_RECALL_WAIT_MS=0): it answers with partial recall.
    const ctx = testContext(t().db, { clock: systemClock, env: { AI_RECALL_WAIT_MS: "0" } });
    memory = buildMemoryServices(ctx.config, t().db, systemClock, ctx.logger);
    const ref: { queue?: JobQueue } = {};
    const th = await startTestHost(t(), jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => ref.queue! }), {
      stores: { repository: memory.repository.store },
      pools: ["ingest", "ai"],
    });
    stopHost = () => th.stop();
    ref.queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    ctx.memory = memory;
    ctx.jobs = ref.queue;
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await srv?.close();
    await stopHost?.();
    memory?.close();
  });

  const thread = (a: Account, id = uniq("thread")) => threadClient(srv.url, a.apiKey, id);

  it("the README's usage example runs as written and prints what the README says", async () => {
    const a = await seedAccount(t().db);
    const r = await runReadmeExample({ CODESYNAPSE_URL: srv.url, CODESYNAPSE_API_KEY: a.apiKey, CODESYNAPSE_SESSION_ID: uniq("readme"), REPO: a.repoName, ORG_ID: a.orgId });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("true TokenStore succeeded repo_not_found");
    expect(readFileSync(README, "utf8")).toContain("It prints `true TokenStore succeeded repo_not_found`");
  });

  it("registers once, idempotently, and the server resolves the same identity from the headers it sets", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("thread");
    const cs = await connect({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: id });
    const again = await cs.register();
    const me = await cs.identity();
    expect(me).toEqual({ tenant_id: a.orgId, subject_id: a.userId, session_id: id, parent_session_id: id, expires_at: again.expires_at });
    expect((await thread(a, id).register()).expires_at).toBe(again.expires_at);
  });

  it("refusals are CodeSynapseErrors with the platform's code and status, never echoing the key or the session", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const id = uniq("thread");
    await thread(a, id).register();

    const claimed = await refusal(thread(b, id).register());
    expect([claimed.code, claimed.status]).toEqual(["session_claimed", 409]);
    const unregistered = await refusal(thread(a).identity());
    expect(unregistered.code).toBe("session_not_found");
    const noRepo = await refusal(thread(a, id).call("session_memory.read", { repo: "no-such-repo" }));
    expect([noRepo.code, noRepo.status]).toEqual(["repo_not_found", 404]);
    const tooMany = await refusal(thread(a, id).call("session_memory.read", { repo: a.repoId, limit: 1_000_000 }));
    expect([tooMany.code, tooMany.status]).toEqual(["validation_failed", 400]);
    const badKey = await refusal(new CodeSynapseClient({ baseUrl: srv.url, apiKey: `csk_${"0".repeat(40)}`, sessionId: id }).identity());
    expect(badKey.code).toBe("invalid_credentials");

    for (const e of [claimed, unregistered, noRepo, tooMany, badKey]) {
      const shown = `${e.message}\n${e.stack}\n${JSON.stringify(e)}\n${inspect(e)}`;
      expect(shown).not.toContain(id);
      expect(shown).not.toContain(a.apiKey);
      expect(shown).not.toContain(b.apiKey);
    }
    const cs = thread(a, id);
    expect(`${inspect(cs, { showHidden: true, depth: 10 })}${JSON.stringify(cs)}`).not.toMatch(new RegExp(`${id}|${a.apiKey}`));
  });

  it("a caller's headers cannot replace the key or the session the client was made with", async () => {
    const a = await seedAccount(t().db);
    const b = await seedAccount(t().db);
    const mine = uniq("thread");
    const theirs = uniq("thread");
    await thread(a, mine).register();
    await thread(b, theirs).register();
    const cs = new CodeSynapseClient({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: mine, headers: { authorization: `Bearer ${b.apiKey}`, "x-codesynapse-session": theirs } });
    const per = { headers: { authorization: `Bearer ${b.apiKey}`, "x-codesynapse-session": theirs, "x-codesynapse-parent-session": theirs } };
    expect((await cs.identity(per)).session_id).toBe(mine);
  });

  it("revoked: every call answers session_revoked and the ID cannot be registered again", async () => {
    const a = await seedAccount(t().db);
    const cs = await connect({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: uniq("thread") });
    await cs.revoke();
    expect((await refusal(cs.identity())).code).toBe("session_revoked");
    expect((await refusal(cs.call("session_memory.read", { repo: a.repoId }))).code).toBe("session_revoked");
    expect((await refusal(cs.register())).code).toBe("session_revoked");
  });

  it("upload, ingest and waitForJob: the job ends succeeded, run as this thread; an idempotency key replays the job", async () => {
    const a = await seedAccount(t().db);
    const id = uniq("thread");
    const cs = await connect({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: id });
    const job = await ingestArchive(cs, a.repoName, await fixtureTar(FIXTURE_FILES), 60_000);
    expect(job).toMatchObject({ status: "succeeded", result: { source: "upload", files: Object.keys(FIXTURE_FILES).length } });
    const row = await t().db.selectFrom("jobs").select(["session_id", "parent_session_id"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ session_id: id, parent_session_id: id });

    const ask = { task: "question", question: "Where is verifyToken defined?" };
    const first = await cs.submit("ai-tasks", a.repoName, ask, { idempotencyKey: "ask-1" });
    expect(await cs.submit("ai-tasks", a.repoName, ask, { idempotencyKey: "ask-1" })).toEqual(first);
    const answer = await cs.waitForJob(first.job_id, { timeoutMs: 60_000 });
    expect(answer.status).toBe("succeeded");
    expect(JSON.stringify(answer.result)).toContain("verifyToken");
    // Its ingest's embedding follow-up never ran here: the answer says its recall was partial.
    expect(answer.result).toMatchObject({ recall: "partial" });
    expect(await cs.job(job.id)).toMatchObject({ follow_ups: [{ kind: "embedding.refresh", status: "queued" }], recall: "partial" });
    // Another thread of the same user cannot see it.
    expect((await refusal((await connect({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: uniq("thread") })).job(first.job_id))).code).toBe("job_not_found");
  });

  it("waitForJob gives up with wait_timeout, and stops with aborted when its signal fires", async () => {
    const a = await seedAccount(t().db);
    const cs = await connect({ baseUrl: srv.url, apiKey: a.apiKey, sessionId: uniq("thread") });
    const { job_id } = await cs.submit("embeddings/refresh", a.repoName, {});
    const started = Date.now();
    expect((await refusal(cs.waitForJob(job_id, { timeoutMs: 1_500 }))).code).toBe("wait_timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    expect((await refusal(cs.waitForJob(job_id, { timeoutMs: 60_000, signal: ac.signal }))).code).toBe("aborted");
    expect((await cs.job(job_id)).status).toBe("queued");
  });

  it("an unreachable server is `unreachable`, naming neither the key nor the session", async () => {
    const a = await seedAccount(t().db);
    const e = await refusal(new CodeSynapseClient({ baseUrl: "http://127.0.0.1:1", apiKey: a.apiKey, sessionId: "thread-x1" }).identity());
    expect([e.code, e.status]).toEqual(["unreachable", undefined]);
    expect(`${e.message}${e.stack}`).not.toMatch(new RegExp(`thread-x1|${a.apiKey}`));
  });
});

/**
 * Idempotent submissions over the real app, on PGlite and PostgreSQL:
 * an `Idempotency-Key` returns the first job for 24 h, the same key with another
 * body is 409, keys are scoped by the execution identity, bad keys are 400, and
 * concurrent submissions with one key — through two API nodes with their own
 * connections — create exactly one job. The sweep purges expired keys.
 */
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import type { AppContext } from "../../api/context";
import { buildMemoryServices } from "../../main/memory";
import { ManualClock } from "../../core/clock";
import { grantRepo } from "../../core/accounts/accounts";
import { IDEMPOTENCY_TTL_MS } from "../../core/limits";
import { REDACTING_OPTIONS } from "../../core/log";
import type { MemoryServices } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import { sweepSessions } from "../../core/retention/cleanup";
import { relationalStores } from "../../db/stores";
import { openDatabase, type OpenDatabase } from "../../db/database";
import type { Db } from "../../db/schema";
import { claimKeys, idempotencyCleaner, keyHash } from "../../queues/idempotency";
import { newJobId } from "../../queues/sql/enqueueJob";
import { seedExecution } from "../support/jobs";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import type { JobHandler } from "../../workers/handler";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer } from "../support/http";
import { probeService } from "../support/services";
import { identityStore } from "../../db/sql/identity/store";

const clock = new ManualClock(Date.UTC(2026, 11, 3, 9));
const ask = (question: string) => ({ task: "question", question });

async function jobsOfSession(db: Db, session: string): Promise<string[]> {
  return (await db.selectFrom("jobs").select("id").where("session_id", "=", session).execute()).map((r) => r.id);
}

await describeEachDatabase("idempotent submissions", (t) => {
  const nodes: Array<{ srv: TestServer; memory: MemoryServices; ctx: AppContext }> = [];
  let second: OpenDatabase | undefined;

  /** An API node: its own app, queue (so its own submit batcher) and, on PostgreSQL, its own connections. */
  async function node(db: Db) {
    const ctx = testContext(db, { clock });
    const memory = buildMemoryServices(ctx.config, db, clock, ctx.logger);
    const registry = new JobRegistry<JobHandler>();
    const queueRef: { q?: AppContext["jobs"] } = {};
    for (const h of jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => queueRef.q! })) registry.register(h);
    ctx.jobs = queueRef.q = createJobQueue({ db, identity: identityStore, clock, logger: ctx.logger, registry }).queue;
    ctx.memory = memory;
    const srv = await listen(createApp(ctx));
    nodes.push({ srv, memory, ctx });
    return srv;
  }
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await node(t().db);
    if (t().kind === "postgres") {
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t().db)).rows[0]!.s;
      second = await openDatabase({ url: (await probeService("postgres")).url!, schema, poolSize: 10 });
      b = await node(second.db);
    } else {
      b = await node(t().db); // PGlite is one connection: a second node shares it, with its own batcher
    }
  });
  afterAll(async () => {
    for (const n of nodes) {
      await n.srv.close();
      n.memory.close();
    }
    await second?.close();
  });

  const submit = (srv: TestServer, headers: Record<string, string>, repo: string, body: unknown, key?: string, path = "ai-tasks") =>
    call(srv.url, "POST", `/api/v1/repos/${repo}/${path}`, { headers: { ...headers, ...(key !== undefined ? { "idempotency-key": key } : {}) }, body });

  async function thread(acc?: Account) {
    const account = acc ?? (await seedAccount(t().db));
    return { account, ...(await registerThread(a.url, account.apiKey)) };
  }

  it("the same key and body returns the first job (Idempotent-Replayed); without a key each call is a new job", async () => {
    const th = await thread();
    const key = crypto.randomUUID();
    const first = await submit(a, th.headers, th.account.repoId, ask("what does AuthService do?"), key);
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await submit(a, th.headers, th.account.repoId, ask("what does AuthService do?"), key);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ job_id: first.body.job_id });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The repository by name is the same request; the quoted (RFC 8941) form is the same key.
    const byName = await submit(b, th.headers, th.account.repoName, ask("what does AuthService do?"), `"${key}"`);
    expect(byName.body).toEqual({ job_id: first.body.job_id });
    expect(await jobsOfSession(t().db, th.session)).toEqual([first.body.job_id]);
    const plain1 = await submit(a, th.headers, th.account.repoId, ask("what does AuthService do?"));
    const plain2 = await submit(a, th.headers, th.account.repoId, ask("what does AuthService do?"));
    expect(new Set([first.body.job_id, plain1.body.job_id, plain2.body.job_id]).size).toBe(3);
  });

  it("the same key with another body, kind or repository is 409 idempotency_key_reused and creates nothing", async () => {
    const th = await thread();
    const key = `order-${uniq()}`;
    const first = await submit(a, th.headers, th.account.repoId, ask("one"), key);
    expect(first.status).toBe(202);
    const other = await submit(a, th.headers, th.account.repoId, ask("two"), key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("idempotency_key_reused");
    expect(other.text).not.toContain(key);
    const otherKind = await submit(a, th.headers, th.account.repoId, { problem: "one" }, key, "fix-jobs");
    expect(otherKind.status).toBe(409);
    expect(otherKind.body.error.code).toBe("idempotency_key_reused");
    const repo2 = (await seedAccount(t().db, { orgId: th.account.orgId })).repoId;
    await grantRepo(identityStore(t().db), { repoId: repo2, userId: th.account.userId, level: "write" });
    const otherRepo = await submit(a, th.headers, repo2, ask("one"), key);
    expect(otherRepo.status).toBe(409);
    expect(await jobsOfSession(t().db, th.session)).toEqual([first.body.job_id]);
  });

  it("a key is scoped by the execution identity: another session of the same user and another tenant get their own jobs", async () => {
    const th = await thread();
    const sibling = await thread(th.account); // same org and user, another chat thread
    const stranger = await thread(); // another organisation
    const key = "shared-key-1";
    const mine = await submit(a, th.headers, th.account.repoId, ask("same"), key);
    const theirs = await submit(a, sibling.headers, th.account.repoId, ask("same"), key);
    const foreign = await submit(a, stranger.headers, stranger.account.repoId, ask("same"), key);
    for (const r of [mine, theirs, foreign]) expect(r.status).toBe(202);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(foreign.headers.get("idempotent-replayed")).toBeNull();
    expect(new Set([mine.body.job_id, theirs.body.job_id, foreign.body.job_id]).size).toBe(3);
    // A different body under the same key in another session is no conflict either.
    expect((await submit(a, sibling.headers, th.account.repoId, ask("different"), "shared-key-2")).status).toBe(202);
    expect((await submit(a, th.headers, th.account.repoId, ask("other"), "shared-key-2")).status).toBe(202);
  });

  it("bad keys are 400 idempotency_key_invalid, never quoted back, and nothing is queued", async () => {
    const th = await thread();
    for (const bad of ["", "has space", "x".repeat(256), "naïve", 'quo"te', "semi;colon", '""']) {
      const r = await submit(a, th.headers, th.account.repoId, ask("q"), bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error.code).toBe("idempotency_key_invalid");
      if (bad.length > 2) expect(r.text).not.toContain(bad);
    }
    expect((await submit(a, th.headers, th.account.repoId, ask("q"), "x".repeat(255))).status).toBe(202);
    expect(await jobsOfSession(t().db, th.session)).toHaveLength(1);
  });

  it("a refused submission holds no key: the same key works once the caller may submit", async () => {
    const th = await thread(await seedAccount(t().db, { repoLevel: "read" }));
    const key = uniq("k");
    const refused = await submit(a, th.headers, th.account.repoId, { problem: "fix it" }, key, "fix-jobs");
    expect(refused.status).toBe(403);
    await grantRepo(identityStore(t().db), { repoId: th.account.repoId, userId: th.account.userId, level: "write" });
    const ok = await submit(a, th.headers, th.account.repoId, { problem: "fix it" }, key, "fix-jobs");
    expect(ok.status).toBe(202);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  it("concurrent submissions with one key through two API nodes create exactly one job", async () => {
    const th = await thread();
    for (let round = 0; round < 3; round++) {
      const key = uniq(`race${round}`);
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => submit(i % 2 ? a : b, th.headers, th.account.repoId, ask(`race ${round}`), key)));
      expect(answers.map((r) => r.status)).toEqual(Array(24).fill(202));
      const ids = new Set(answers.map((r) => r.body.job_id));
      expect(ids.size).toBe(1);
      expect(answers.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    }
    expect(await jobsOfSession(t().db, th.session)).toHaveLength(3);
    // Concurrent, same key, different bodies: one wins, every other is 409.
    const key = uniq("mixed");
    const mixed = await Promise.all(Array.from({ length: 12 }, (_, i) => submit(i % 2 ? a : b, th.headers, th.account.repoId, ask(`body ${i}`), key)));
    expect(mixed.filter((r) => r.status === 202)).toHaveLength(1);
    expect(mixed.filter((r) => r.status === 409 && r.body.error.code === "idempotency_key_reused")).toHaveLength(11);
    expect(await jobsOfSession(t().db, th.session)).toHaveLength(4);
  });

  it("two transactions claiming the same keys in opposite orders wait for each other and never deadlock", async () => {
    // Two submit flushes in flight (or two API nodes) may carry overlapping keys in any order; the
    // claim writes them in one order, so one waits for the other instead of both deadlocking
    // (inTransaction would retry, but only after PostgreSQL's deadlock timeout: a second's stall).
    // A third transaction holds the first and the last key until both claims have started, so the
    // two statements run at the same time (written in the order given, they would meet in the
    // middle). Plain transactions here, without inTransaction's retry, so a deadlock shows.
    const e = await seedExecution(t().db, clock);
    const claims = Array.from({ length: 2000 }, (_, i) => ({ identity: e.identity, keyHash: keyHash(uniq(`k${i}`)), requestHash: "r", jobId: newJobId() }));
    const rollback = new Error("rolled back by the test");
    const label = (o: unknown) => (o === rollback ? "rolled back" : ((o as { code?: string }).code ?? String(o)));
    for (let round = 0; round < 2; round++) {
      let started!: () => void;
      const holding = new Promise<void>((r) => (started = r));
      const holder = t().db.transaction().execute(async (tx) => {
        await claimKeys(tx, clock.now(), [claims[0]!, claims[claims.length - 1]!]);
        started();
        await new Promise((r) => setTimeout(r, t().kind === "postgres" ? 500 : 0));
        throw rollback;
      }).catch((err: unknown) => err);
      await holding;
      const attempt = (list: typeof claims) =>
        t().db.transaction().execute(async (tx) => {
          await claimKeys(tx, clock.now(), list);
          throw rollback; // the jobs the claims name are never inserted
        }).catch((err: unknown) => err);
      const outcomes = await Promise.all([holder, attempt(claims), attempt([...claims].reverse())]);
      // A deadlock would fail one of the two with 40P01 instead of the test's own rollback.
      expect(outcomes.map(label)).toEqual(["rolled back", "rolled back", "rolled back"]);
    }
  });

  it("the MCP submit tools take idempotency_key: the same job as a REST retry with the same key and body", async () => {
    const th = await thread();
    const client = new Client({ name: "test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), { requestInit: { headers: th.headers } }));
    try {
      const key = crypto.randomUUID();
      const tool = async (args: Record<string, unknown>) => (await client.callTool({ name: "submit_ai_task", arguments: { repo: th.account.repoId, ...args } })) as { isError?: boolean; structuredContent: any };
      const first = await tool({ task: "question", question: "mcp?", idempotency_key: key });
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toEqual({ job_id: expect.stringMatching(/^job_/) });
      const again = await tool({ task: "question", question: "mcp?", idempotency_key: key });
      expect(again.structuredContent).toEqual({ job_id: first.structuredContent.job_id, replayed: true });
      const rest = await submit(a, th.headers, th.account.repoId, ask("mcp?"), key);
      expect(rest.body.job_id).toBe(first.structuredContent.job_id);
      const reused = await tool({ task: "question", question: "other", idempotency_key: key });
      expect(reused.isError).toBe(true);
      expect(reused.structuredContent.error.code).toBe("idempotency_key_reused");
      const bad = await tool({ task: "question", question: "mcp?", idempotency_key: "no spaces please" });
      expect(bad.structuredContent.error.code).toBe("idempotency_key_invalid");
      expect(await jobsOfSession(t().db, th.session)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("the logger's redaction drops idempotency keys wherever a request log would carry them", () => {
    let out = "";
    const log = pino({ ...REDACTING_OPTIONS }, { write: (line: string) => void (out += line) });
    log.info({ req: { headers: { "idempotency-key": "k1-order-4711" } }, headers: { "idempotency-key": "k2-order-4711" }, args: { idempotency_key: "k3-order-4711" } }, "request");
    expect(out).toContain("request");
    expect(out).not.toContain("order-4711");
  });

  it("after 24 h the key is free again, and the cleanup sweep purges expired keys (and only those)", async () => {
    const th = await thread();
    const key = uniq("ttl");
    const first = await submit(a, th.headers, th.account.repoId, ask("ttl"), key);
    const live = await submit(a, th.headers, th.account.repoId, ask("live"), uniq("live"));
    clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect((await submit(a, th.headers, th.account.repoId, ask("ttl"), key)).body.job_id).toBe(first.body.job_id);
    const fresh = await submit(a, th.headers, th.account.repoId, ask("fresh"), uniq("fresh"));
    clock.advance(2000);
    const after = await submit(a, th.headers, th.account.repoId, ask("a different body is fine now"), key);
    expect(after.status).toBe(202);
    expect(after.body.job_id).not.toBe(first.body.job_id);
    expect(after.headers.get("idempotent-replayed")).toBeNull();
    // Past 24 h: `live` expired; `fresh` and the retaken key have not.
    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from job_idempotency_keys where session_id = ${th.session}`.execute(t().db)).rows[0]!.n);
    expect(await count()).toBe(3);
    await sweepSessions(relationalStores(t().db), clock, new SessionCleaners().register(idempotencyCleaner(t().db)), nodes[0]!.ctx.logger);
    expect(await count()).toBe(2);
    expect(live.status).toBe(202);
    const left = await t().db.selectFrom("job_idempotency_keys").selectAll().where("session_id", "=", th.session).execute();
    expect(left.map((r) => r.job_id).sort()).toEqual([fresh.body.job_id, after.body.job_id].sort());
    // Only hashes are stored: the key itself is in no column.
    expect(JSON.stringify(left)).not.toContain(key);
  });
});

/**
 * Erasure that cascades to the relational rows quoting memory, on PGlite and PostgreSQL, over
 * HTTP with the real runner and the local LLM provider (whose answer quotes the recalled facts):
 * a thread learns a fact, asks an AI question with an Idempotency-Key (the job's result quotes the
 * fact), then
 *   - clears its namespace: the receipt counts the job result and idempotency row erased, and the
 *     job row (read directly) keeps its identity and status but no longer quotes the fact;
 *   - is revoked: the job's params and result are erased, its idempotency row is gone, and the
 *     recorded receipt (GET …/sessions/{id}/erasure from another thread) counts every store;
 *   - has its durable writes forgotten by a repository admin: the same for its job on that repository.
 * Another thread's job is never touched.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { systemClock } from "../../core/clock";
import { grantRepo } from "../../core/accounts/accounts";
import { memoryCleaner, type MemoryServices } from "../../core/memory/services";
import { SessionCleaners } from "../../core/retention/cleaners";
import { cleanSession, sweepSessions } from "../../core/retention/cleanup";
import { silentLogger } from "../../core/log";
import type { Db } from "../../db/schema";
import { relationalStores } from "../../db/stores";
import { buildMemoryServices } from "../../main/memory";
import { idempotencyCleaner } from "../../queues/idempotency";
import { jobQuotesCleaner, retryPendingErasures } from "../../queues/memory-erasure";
import type { JobQueue } from "../../queues/submit";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { call, listen, registerThread, type TestServer, type Thread } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);

/** Everything the job store holds about one job, as text: its row and its idempotency rows. */
async function stored(db: Db, jobId: string): Promise<{ job: string; keys: number }> {
  const job = await jobRow(db, jobId);
  const keys = await db.selectFrom("job_idempotency_keys").select("job_id").where("job_id", "=", jobId).execute();
  return { job: JSON.stringify({ params: job.params, result: job.result }), keys: keys.length };
}

await describeEachDatabase("erasure cascades to job rows and idempotency rows, with receipts", (t) => {
  let srv: TestServer;
  let th: TestHost;
  let memory: MemoryServices;
  let queue: JobQueue;
  let cleaners: SessionCleaners;
  beforeAll(async () => {
    const ctx = testContext(t().db, { clock: systemClock });
    memory = buildMemoryServices(ctx.config, t().db, systemClock, silentLogger());
    th = await startTestHost(t(), jobKindHandlers({ config: ctx.config, stores: ctx.stores, memory, queue: () => queue }), { pools: ["ai"], stores: { repository: memory.repository.store } });
    queue = { db: t().db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher };
    cleaners = new SessionCleaners().register(memoryCleaner(memory, systemClock)).register(idempotencyCleaner(t().db)).register(jobQuotesCleaner(t().db, relationalStores(t().db).receipts, systemClock));
    Object.assign(ctx, { memory, jobs: queue, cleaners });
    srv = await listen(createApp(ctx));
  });
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
    memory?.close();
  });

  const sm = (a: Account, suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;

  /** The thread learns `subject reviewed_by object` and asks about it; answers the finished job. */
  async function askAbout(a: Account, thread: Thread, subject: string, object: string, key: string): Promise<string> {
    const w = await call(srv.url, "POST", sm(a), { headers: thread.headers, body: { triples: [{ subject, predicate: "reviewed_by", object }] } });
    expect(w.status).toBe(200);
    const sub = await call(srv.url, "POST", `/api/v1/repos/${a.repoName}/ai-tasks`, {
      headers: { ...thread.headers, "idempotency-key": key },
      body: { task: "question", question: `Who reviewed ${subject}?` },
    });
    expect(sub.status).toBe(202);
    const id = sub.body.job_id as string;
    const done = await waitFor(async () => {
      const r = await jobRow(t().db, id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    // The answer quotes the recalled fact: this is what erasure must take out.
    expect(JSON.stringify(done.result)).toContain(`${subject} reviewed by ${object}`);
    expect(await stored(t().db, id)).toMatchObject({ keys: 1 });
    return id;
  }

  it("clearing a namespace erases the thread's AI job results there and their idempotency rows; the receipt counts them; another thread's job stays", async () => {
    const a = await seedAccount(t().db);
    const one = await registerThread(srv.url, a.apiKey);
    const other = await registerThread(srv.url, a.apiKey);
    const mine = await askAbout(a, one, "LedgerService", "Quillon", "clear-1");
    const theirs = await askAbout(a, other, "BillingService", "Marwick", "clear-2");

    const r = await call(srv.url, "DELETE", sm(a), { headers: one.headers });
    expect(r.status).toBe(200);
    expect(r.body.done).toBe(true);
    expect(r.body.stores).toEqual(
      expect.arrayContaining([
        { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: 1, status: "done" },
        { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: 1, status: "done" },
      ]),
    );
    const row = await jobRow(t().db, mine);
    expect([row.status, row.session_id, row.kind, row.repo_id]).toEqual(["succeeded", one.session, "ai.task", a.repoId]);
    expect(row.result).toEqual({ erased: true, cause: "namespace_cleared", erased_at: expect.any(String) });
    const left = await stored(t().db, mine);
    expect(left.keys).toBe(0);
    expect(left.job).not.toContain("Quillon");
    // The job view says so too.
    const seen = await call(srv.url, "GET", `/api/v1/jobs/${mine}`, { headers: one.headers });
    expect(seen.body.result).toMatchObject({ erased: true, cause: "namespace_cleared" });
    // The other thread's answer and key are untouched.
    expect(await stored(t().db, theirs)).toMatchObject({ keys: 1, job: expect.stringContaining("BillingService reviewed by Marwick") });
    // A second clear finds nothing more to erase.
    const again = await call(srv.url, "DELETE", sm(a), { headers: one.headers });
    expect(again.body.stores.filter((s: { store: string }) => s.store.startsWith("jobs:")).map((s: { rows: number }) => s.rows)).toEqual([0, 0]);
  });

  it("revoking a thread erases its AI jobs' params and results and its idempotency rows; the recorded receipt counts every store", async () => {
    const a = await seedAccount(t().db);
    const gone = await registerThread(srv.url, a.apiKey);
    const other = await registerThread(srv.url, a.apiKey);
    const mine = await askAbout(a, gone, "PaymentsGateway", "Thessaly", "revoke-1");
    const theirs = await askAbout(a, other, "SearchIndex", "Orlanda", "revoke-2");

    // A live session has no receipt.
    const early = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: other.headers });
    expect([early.status, early.body.error.code]).toEqual([404, "not_found"]);

    expect((await call(srv.url, "DELETE", `/api/v1/execution/sessions/${gone.session}`, { headers: { authorization: `Bearer ${a.apiKey}` } })).status).toBe(204);
    const row = await jobRow(t().db, mine);
    expect([row.status, row.session_id, row.kind]).toEqual(["succeeded", gone.session, "ai.task"]);
    expect(row.params).toEqual({ erased: true });
    expect(row.result).toEqual({ erased: true, cause: "session_ended", erased_at: expect.any(String) });
    const left = await stored(t().db, mine);
    expect(left.keys).toBe(0);
    expect(left.job).not.toContain("Thessaly");
    expect(left.job).not.toContain("PaymentsGateway");
    const keys = await t().db.selectFrom("job_idempotency_keys").select("job_id").where("session_id", "=", gone.session).execute();
    expect(keys).toEqual([]);
    expect(await stored(t().db, theirs)).toMatchObject({ keys: 1, job: expect.stringContaining("SearchIndex reviewed by Orlanda") });

    const receipt = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: other.headers });
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ session_id: gone.session, cause: "revoked", passes: 1, done: true });
    const byStore = Object.fromEntries(receipt.body.stores.map((s: { store: string; removed: number; status: string }) => [s.store, [s.removed, s.status]]));
    expect(byStore["job-quotes"]).toEqual([1, "done"]);
    expect(byStore["idempotency-keys"]).toEqual([1, "done"]);
    expect(byStore["session-memory"][0]).toBeGreaterThan(0);
    expect(byStore["session-memory"][1]).toBe("done");

    // The sweep's retry adds a pass and nothing more (every store was done).
    await sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger());
    const after = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: other.headers });
    expect(after.body).toMatchObject({ passes: 2, done: true, stores: receipt.body.stores });

    // Another user of the organisation (a member, not the owner of the session) is told nothing.
    const stranger = await seedAccount(t().db, { orgId: a.orgId, role: "member" });
    const st = await registerThread(srv.url, stranger.apiKey);
    const denied = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: st.headers });
    expect([denied.status, denied.body.error.code]).toEqual([404, "session_not_found"]);
    expect(denied.text).not.toContain(gone.session);
  });

  it("a pending cleanup is recorded pending and completed by the sweep's retry", async () => {
    const a = await seedAccount(t().db);
    const gone = await registerThread(srv.url, a.apiKey);
    const other = await registerThread(srv.url, a.apiKey);
    const ids = [await askAbout(a, gone, "Auditor", "Velmora", "pending-1"), await askAbout(a, gone, "Exporter", "Castellane", "pending-2")];
    // One bounded pass of one item per cleaner cannot finish two jobs.
    await t().db.updateTable("session_bindings").set({ tombstoned_at: new Date(), tombstone_reason: "revoked" }).where("session_id", "=", gone.session).execute();
    await cleanSession(cleaners, { tenant_id: a.orgId, session_id: gone.session }, silentLogger(), { limit: 1, batches: 1, record: { receipts: relationalStores(t().db).receipts, now: new Date() } });
    const first = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: other.headers });
    expect(first.body).toMatchObject({ passes: 1, done: false });
    expect(first.body.stores.find((s: { store: string }) => s.store === "job-quotes")).toEqual({ store: "job-quotes", removed: 1, status: "pending" });
    await sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger());
    const second = await call(srv.url, "GET", `/api/v1/execution/sessions/${gone.session}/erasure`, { headers: other.headers });
    expect(second.body).toMatchObject({ passes: 2, done: true });
    expect(second.body.stores.find((s: { store: string }) => s.store === "job-quotes")).toEqual({ store: "job-quotes", removed: 2, status: "done" });
    for (const id of ids) expect((await stored(t().db, id)).job).not.toMatch(/Velmora|Castellane/);
    const row = await sql<{ done_at: Date | null }>`select done_at from session_erasure_receipts where session_id = ${gone.session}`.execute(t().db);
    expect(row.rows[0]?.done_at).not.toBeNull();
  });

  it("forgetting a session's durable writes erases that session's AI job results on the repository and their idempotency rows", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const writer = await registerThread(srv.url, a.apiKey);
    const admin = await registerThread(srv.url, a.apiKey);
    const w = await call(srv.url, "POST", sm(a), { headers: writer.headers, body: { triples: [{ subject: "TokenVault", predicate: "reviewed_by", object: "Ismenia" }] } });
    expect((await call(srv.url, "POST", sm(a, "/promote"), { headers: writer.headers, body: { fact_ids: [w.body.facts[0].fact_id] } })).status).toBe(200);
    const mine = await askAbout(a, writer, "TokenVault", "Ismenia", "forget-1");
    await grantRepo(identityStore(t().db), { repoId: a.repoId, userId: a.userId, level: "admin" });
    const r = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/forget-session`, { headers: admin.headers, body: { session_id: writer.session } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ scope: "promoted", session_id: writer.session, done: true });
    expect(r.body.stores).toEqual(
      expect.arrayContaining([
        { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: 1, status: "done" },
        { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: 1, status: "done" },
      ]),
    );
    const row = await jobRow(t().db, mine);
    expect(row.result).toEqual({ erased: true, cause: "session_forgotten", erased_at: expect.any(String) });
    const left = await stored(t().db, mine);
    expect([left.keys, left.job.includes("Ismenia")]).toEqual([0, false]);
  });

  /** An AI question of `thread` over what the repository holds (nothing written to its own session memory first). */
  async function ask(a: Account, thread: Thread, question: string): Promise<string> {
    const sub = await call(srv.url, "POST", `/api/v1/repos/${a.repoName}/ai-tasks`, { headers: { ...thread.headers, "idempotency-key": `q-${question.length}-${thread.session}` }, body: { task: "question", question } });
    expect(sub.status).toBe(202);
    const id = sub.body.job_id as string;
    const done = await waitFor(async () => {
      const r = await jobRow(t().db, id);
      return TERMINAL.has(r.status) ? r : undefined;
    }, 30_000);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    return id;
  }

  it("forgetting a session cascades to OTHER sessions' AI answers on the repository whose sources cite a forgotten fact; answers citing other facts stay", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const writer = await registerThread(srv.url, a.apiKey);
    const reader = await registerThread(srv.url, a.apiKey);
    const admin = await registerThread(srv.url, a.apiKey);
    // An answer given before the writer's fact existed cannot cite it.
    expect((await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/triples`, { headers: reader.headers, body: { triples: [{ subject: "WarpCore", predicate: "tuned_by", object: "Sablewood" }] } })).status).toBe(200);
    const unrelated = await ask(a, reader, "Who tuned the WarpCore?");
    const w = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/triples`, { headers: writer.headers, body: { triples: [{ subject: "FluxCapacitor", predicate: "tuned_by", object: "Oberlin" }] } });
    expect(w.status).toBe(200);
    const forgotten = w.body.facts[0].fact_id as string;
    const quoting = await ask(a, reader, "Who tuned the FluxCapacitor?");
    const q = await jobRow(t().db, quoting);
    expect((q.result as { sources: Array<{ fact_id: string }> }).sources.map((x) => x.fact_id)).toContain(forgotten);
    expect(JSON.stringify(q.result)).toContain("Oberlin");
    const u = await jobRow(t().db, unrelated);
    expect((u.result as { sources: Array<{ fact_id: string }> }).sources.map((x) => x.fact_id)).not.toContain(forgotten);

    await grantRepo(identityStore(t().db), { repoId: a.repoId, userId: a.userId, level: "admin" });
    const r = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/forget-session`, { headers: admin.headers, body: { session_id: writer.session } });
    expect(r.status).toBe(200);
    expect(r.body.stores).toEqual(expect.arrayContaining([{ store: "jobs:quoting-results", entities: 0, facts: 0, history: 0, rows: 2, status: "done" }]));
    const after = await jobRow(t().db, quoting);
    expect([after.status, after.session_id]).toEqual(["succeeded", reader.session]);
    expect(after.result).toEqual({ erased: true, cause: "quoted_fact_forgotten", erased_at: expect.any(String) });
    expect(await stored(t().db, quoting)).toMatchObject({ keys: 0 });
    expect((await stored(t().db, quoting)).job).not.toContain("Oberlin");
    expect(await stored(t().db, unrelated)).toMatchObject({ keys: 1, job: expect.stringContaining("Sablewood") });
    // A second forget finds nothing more.
    const again = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/forget-session`, { headers: admin.headers, body: { session_id: writer.session } });
    expect(again.body.stores.find((s: { store: string }) => s.store === "jobs:quoting-results").rows).toBe(0);
  });

  /**
   * Puts a finished job back in flight (as it was while the erasure ran) and answers a function that
   * ends it again with its own answer — the result quoting the fact, with its sources.
   */
  async function inFlight(id: string): Promise<() => Promise<void>> {
    const row = await jobRow(t().db, id);
    await sql`update jobs set status = 'running', result = null, finished_at = null, lease_owner = 'elsewhere', lease_token = 'in-flight', lease_expires_at = now() + interval '1 hour' where id = ${id}`.execute(t().db);
    return async () => void (await sql`update jobs set status = 'succeeded', result = ${JSON.stringify(row.result)}::jsonb, finished_at = now(), lease_owner = null, lease_token = null, lease_expires_at = null where id = ${id}`.execute(t().db));
  }
  const storeOf = (stores: Array<{ store: string }>, name: string) => stores.find((s) => s.store === name);

  it("forget-session meets another session's running AI job: the stored receipt is pending; once the job ends with sources citing a forgotten fact, the cleanup sweep erases it and the receipt reads done (two racing sweeps count it once)", async () => {
    const a = await seedAccount(t().db, { repoLevel: "write" });
    const writer = await registerThread(srv.url, a.apiKey);
    const reader = await registerThread(srv.url, a.apiKey);
    const admin = await registerThread(srv.url, a.apiKey);
    const w = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/triples`, { headers: writer.headers, body: { triples: [{ subject: "Chronoscope", predicate: "tuned_by", object: "Verhoeven" }] } });
    const forgotten = w.body.facts[0].fact_id as string;
    const quoting = await ask(a, reader, "Who tuned the Chronoscope?");
    expect((await stored(t().db, quoting)).job).toContain("Verhoeven");
    const finish = await inFlight(quoting);

    await grantRepo(identityStore(t().db), { repoId: a.repoId, userId: a.userId, level: "admin" });
    const r = await call(srv.url, "POST", `/api/v1/repos/${a.repoId}/memory/forget-session`, { headers: admin.headers, body: { session_id: writer.session } });
    expect(r.status).toBe(200);
    expect(r.body.done).toBe(false);
    expect(storeOf(r.body.stores, "jobs:quoting-results")).toMatchObject({ rows: 0, status: "pending" });
    const pending = await t().db.selectFrom("forget_erasure_receipts").selectAll().where("session_id", "=", writer.session).executeTakeFirstOrThrow();
    expect([pending.done, pending.fact_ids]).toEqual([false, [forgotten]]);
    // A sweep while the job still runs erases nothing and leaves the receipt pending.
    await sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger());
    expect((await t().db.selectFrom("forget_erasure_receipts").select("done").where("session_id", "=", writer.session).executeTakeFirstOrThrow()).done).toBe(false);

    // The job ends, its answer quoting the forgotten fact and citing it in its sources.
    await finish();
    expect(await stored(t().db, quoting)).toMatchObject({ keys: 1, job: expect.stringContaining("Verhoeven") });
    // Two cleanup workers race.
    await Promise.all([sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger()), sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger())]);

    const after = await jobRow(t().db, quoting);
    expect([after.status, after.session_id]).toEqual(["succeeded", reader.session]);
    expect(after.result).toEqual({ erased: true, cause: "quoted_fact_forgotten", erased_at: expect.any(String) });
    expect(await stored(t().db, quoting)).toMatchObject({ keys: 0 });
    const done = await t().db.selectFrom("forget_erasure_receipts").selectAll().where("session_id", "=", writer.session).executeTakeFirstOrThrow();
    expect(done.done).toBe(true);
    expect(done.fact_ids).toEqual([]);
    // Counted once: the result and its idempotency row.
    expect(storeOf(done.stores, "jobs:quoting-results")).toEqual({ store: "jobs:quoting-results", entities: 0, facts: 0, history: 0, rows: 2, status: "done" });
    // Idempotent: a later sweep does not pick it again.
    await sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger());
    const later = await t().db.selectFrom("forget_erasure_receipts").selectAll().where("session_id", "=", writer.session).executeTakeFirstOrThrow();
    expect([later.stores, later.updated_at]).toEqual([done.stores, done.updated_at]);
  });

  it("a namespace clear meets the thread's running AI job: the stored receipt is pending until the job ends and the cleanup sweep erases its result; two racing sweeps count it once", async () => {
    const a = await seedAccount(t().db);
    const one = await registerThread(srv.url, a.apiKey);
    const id = await askAbout(a, one, "Heliostat", "Quintavalle", "retry-clear-1");
    const finish = await inFlight(id);
    const cleared = await call(srv.url, "DELETE", sm(a), { headers: one.headers });
    expect(cleared.status).toBe(200);
    expect(cleared.body.done).toBe(false);
    expect(storeOf(cleared.body.stores, "jobs:results")).toMatchObject({ rows: 0, status: "pending" });
    await finish();
    expect((await stored(t().db, id)).job).toContain("Quintavalle");
    await Promise.all([sweepSessions(relationalStores(t().db), systemClock, cleaners, silentLogger()), retryPendingErasures(relationalStores(t().db).receipts, new Date(), 1)]);
    expect((await jobRow(t().db, id)).result).toEqual({ erased: true, cause: "namespace_cleared", erased_at: expect.any(String) });
    const left = await stored(t().db, id);
    expect([left.keys, left.job.includes("Quintavalle")]).toEqual([0, false]);
    const receipt = await call(srv.url, "GET", sm(a, "/erasure"), { headers: one.headers });
    expect(receipt.body.done).toBe(true);
    expect(storeOf(receipt.body.stores, "jobs:results")).toEqual({ store: "jobs:results", entities: 0, facts: 0, history: 0, rows: 1, status: "done" });
    expect(storeOf(receipt.body.stores, "jobs:idempotency")).toEqual({ store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: 1, status: "done" });
  });

  it("a namespace clear's receipt is stored: its owner reads it from the clearing thread or another of theirs; others get 404", async () => {
    const a = await seedAccount(t().db);
    const one = await registerThread(srv.url, a.apiKey);
    const other = await registerThread(srv.url, a.apiKey);
    expect((await call(srv.url, "POST", sm(a), { headers: one.headers, body: { triples: [{ subject: "Gate", predicate: "guards", object: "Vault" }] } })).status).toBe(200);
    const never = await call(srv.url, "GET", sm(a, "/erasure"), { headers: one.headers });
    expect([never.status, never.body.error.code]).toEqual([404, "not_found"]);
    const cleared = await call(srv.url, "DELETE", sm(a), { headers: one.headers });
    expect(cleared.status).toBe(200);
    const own = await call(srv.url, "GET", sm(a, "/erasure"), { headers: one.headers });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ scope: "namespace", session_id: one.session, repo_id: a.repoId, clears: 1, done: true, stores: cleared.body.stores });
    expect(own.body.stores.find((s: { store: string }) => s.store.startsWith("graph:"))).toMatchObject({ entities: 2, facts: 1 });
    const row = await t().db.selectFrom("namespace_erasure_receipts").selectAll().where("session_id", "=", one.session).executeTakeFirstOrThrow();
    expect(row.repo_id).toBe(a.repoId);
    const fromOther = await call(srv.url, "GET", `${sm(a, "/erasure")}?session_id=${one.session}`, { headers: other.headers });
    expect([fromOther.status, fromOther.body.session_id]).toEqual([200, one.session]);
    // A repeated clear adds to the same receipt.
    await call(srv.url, "DELETE", sm(a), { headers: one.headers });
    expect((await call(srv.url, "GET", sm(a, "/erasure"), { headers: one.headers })).body).toMatchObject({ clears: 2 });
    const stranger = await seedAccount(t().db);
    const st = await registerThread(srv.url, stranger.apiKey);
    const denied = await call(srv.url, "GET", `/api/v1/repos/${stranger.repoId}/session-memory/erasure?session_id=${one.session}`, { headers: st.headers });
    expect([denied.status, denied.body.error.code]).toEqual([404, "session_not_found"]);
    expect(denied.text).not.toContain(one.session);
  });
});

/**
 * The runner over real stores with the PostgreSQL-only dispatcher (no Redis):
 * identity restored from the row, authorize() before work and again inside
 * the persist transaction, cancel through the AbortSignal, retries with the
 * same primary session, shutdown semantics — on PGlite and on PostgreSQL.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { suspendMember } from "../../core/accounts/accounts";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { currentExecution, requireIdentity } from "../../core/execution/context";
import { revokeSession } from "../../core/registry/registry";
import { signalCancel } from "../../queues/cancel-signals";
import type { JobRow } from "../../queues/jobs";
import { cancelJob } from "../../queues/sql/cancelJob";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;

/** Test handlers: each records what it saw, and writes only through persist. */
const seen = new Map<string, { sessions: string[]; started: number; gate?: Promise<void>; open?: () => void }>();
function track(id: string) {
  let s = seen.get(id);
  if (!s) {
    s = { sessions: [], started: 0 };
    seen.set(id, s);
  }
  return s;
}

const handlers: JobHandler[] = [
  defineHandler({
    kind: "test.write", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "read", params: anyParams,
    async run({ job, auth }) {
      const ambient = requireIdentity();
      const s = track(job.id);
      s.sessions.push(ambient.session_id);
      s.started++;
      if (auth?.identity !== ambient) throw new Error("context identity differs");
      const failTimes = Number((job.params as { failTimes?: number }).failTimes ?? 0);
      if (s.started <= failTimes) throw new Error("transient");
      if (s.gate) await s.gate;
      // Nothing to write: the finish is shared with the jobs finishing together (one fenced finishJobs).
      if ((job.params as { noPersist?: boolean }).noPersist) return { result: { ok: (job.params as { nulResult?: boolean }).nulResult ? "a\u0000b" : true } };
      return {
        result: { ok: true },
        persist: async (tx) => {
          await sql`insert into job_effects (job_id, session_id, note) values (${job.id}, ${ambient.session_id}, 'persisted')`.execute(tx);
        },
      };
    },
  }),
  defineHandler({
    kind: "test.wait", pool: "ai", restartable: true, maxAttempts: 3, params: anyParams,
    async run({ job, signal }) {
      track(job.id).started++;
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(new AppError("canceled"));
        signal.addEventListener("abort", () => reject(new AppError("canceled")), { once: true });
      });
      return { persist: async (tx) => void (await sql`insert into job_effects (job_id, note) values (${job.id}, 'should not')`.execute(tx)) };
    },
  }),
  defineHandler({
    kind: "test.fixwait", pool: "fix", restartable: false, maxAttempts: 1, params: anyParams,
    async run({ job, signal }) {
      track(job.id).started++;
      await new Promise<void>((_r, reject) => signal.addEventListener("abort", () => reject(new AppError("canceled")), { once: true }));
    },
  }),
];

await describeEachDatabase("job runner, PostgreSQL dispatch", (t) => {
  let th: TestHost;
  beforeAll(async () => {
    await ensureEffectsTable(t().db);
    // A long poll: completion within the tests below needs the LISTEN/NOTIFY wake-up.
    th = await startTestHost(t(), handlers, { pollMs: 30_000 });
  });
  afterAll(async () => th?.stop());

  it("runs a job under the identity rebuilt from its row and persists once, woken by NOTIFY", async () => {
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write" });
    const done = await waitFor(async () => {
      const r = await jobRow(t().db, job.id);
      return r.status === "succeeded" && r;
    }, 10_000);
    expect(done).toMatchObject({ attempts: 1, result: { ok: true }, lease_token: null });
    expect(track(job.id).sessions).toEqual([e.identity.session_id]);
    expect(await effectsOf(t().db, job.id)).toEqual([{ session_id: e.identity.session_id, note: "persisted" }]);
    expect(currentExecution()).toBeUndefined();
  });

  it("membership suspended while the job waits: refused before work, nothing written", async () => {
    const e = await seedExecution(t().db, clock);
    await th.host.stop(); // hold the pools while we change the account
    th = await startTestHost(t(), handlers, { pollMs: 30_000, pools: ["fix"] });
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write" });
    await suspendMember(identityStore(t().db), { orgId: e.account.orgId, userId: e.account.userId, at: new Date() });
    await th.stop();
    th = await startTestHost(t(), handlers, { pollMs: 30_000 });
    const r = await waitFor(async () => {
      const x = await jobRow(t().db, job.id);
      return x.status === "refused" && x;
    });
    expect(r.error_code).toBe("membership_suspended");
    expect(track(job.id).started).toBe(0);
    expect(await effectsOf(t().db, job.id)).toEqual([]);
  });

  it("binding revoked while the job waits: refused before work", async () => {
    const e = await seedExecution(t().db, clock);
    await th.stop();
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write" });
    await revokeSession(identityStore(t().db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
    th = await startTestHost(t(), handlers, { pollMs: 30_000 });
    const r = await waitFor(async () => {
      const x = await jobRow(t().db, job.id);
      return x.status === "refused" && x;
    });
    expect(r.error_code).toBe("session_revoked");
    expect(track(job.id).started).toBe(0);
  });

  it("binding revoked during the run: the persist step refuses and writes nothing", async () => {
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write" });
    const s = track(job.id);
    s.gate = new Promise<void>((r) => (s.open = r));
    await waitFor(async () => s.started > 0);
    await revokeSession(identityStore(t().db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
    s.open!();
    const r = await waitFor(async () => {
      const x = await jobRow(t().db, job.id);
      return x.status === "refused" && x;
    });
    expect([r.error_code, r.result]).toEqual(["session_revoked", null]);
    expect(await effectsOf(t().db, job.id)).toEqual([]);
    const text = await th.metrics.registry.metrics();
    expect(text).toMatch(/codesynapse_job_recheck_refusals_total\{pool="ai",kind="test.write",stage="before_persist",code="session_revoked"\} [1-9]/);
  });

  it("binding revoked during the run of a job with nothing to write: the batched recheck refuses it", async () => {
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write", params: { noPersist: true } });
    const s = track(job.id);
    s.gate = new Promise<void>((r) => (s.open = r));
    const other = await enqueueFor(t().db, clock, await seedExecution(t().db, clock), { kind: "test.write", params: { noPersist: true } });
    await waitFor(async () => s.started > 0);
    await revokeSession(identityStore(t().db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
    s.open!();
    const r = await waitFor(async () => {
      const x = await jobRow(t().db, job.id);
      return x.status === "refused" && x;
    });
    expect([r.error_code, r.result]).toEqual(["session_revoked", null]);
    expect(await waitFor(async () => (await jobRow(t().db, other.id)).status === "succeeded")).toBe(true);
    const text = await th.metrics.registry.metrics();
    expect(text).toMatch(/codesynapse_job_recheck_refusals_total\{pool="ai",kind="test.write",stage="before_persist",code="session_revoked"\} [2-9]/);
  });

  it("a result the store cannot take (a NUL) fails only its own job; the jobs finishing with it succeed at their first attempt", async () => {
    const db = t().db;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const good: JobRow[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await enqueueFor(db, clock, await seedExecution(db, clock), { kind: "test.write", params: { noPersist: true } });
      track(job.id).gate = gate;
      good.push(job);
    }
    await waitFor(async () => good.every((j) => track(j.id).started > 0));
    const bad = await enqueueFor(db, clock, await seedExecution(db, clock), { kind: "test.write", params: { noPersist: true, nulResult: true } });
    track(bad.id).gate = gate;
    await waitFor(async () => track(bad.id).started > 0);
    // All four return at once: the first finishes alone, the other three (the bad one last) in one shared finishJobs.
    open();
    for (const j of good) {
      const r = await waitFor(async () => {
        const x = await jobRow(db, j.id);
        return x.status === "succeeded" && x;
      });
      expect(r).toMatchObject({ attempts: 1, result: { ok: true } });
    }
    const r = await waitFor(async () => {
      const x = await jobRow(db, bad.id);
      return x.status === "failed" && x;
    });
    expect(r).toMatchObject({ error_code: "handler_failed", attempts: 3, result: null });
  });

  it("retries (bounded, with backoff) carry the same primary session", async () => {
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write", params: { failTimes: 2 } });
    const r = await waitFor(async () => {
      const x = await jobRow(t().db, job.id);
      return x.status === "succeeded" && x;
    });
    expect(r.attempts).toBe(3);
    expect(track(job.id).sessions).toEqual([e.identity.session_id, e.identity.session_id, e.identity.session_id]);
    expect(await effectsOf(t().db, job.id)).toEqual([{ session_id: e.identity.session_id, note: "persisted" }]);
  });

  it("cancel stops a running handler through its AbortSignal (in process and through the row)", async () => {
    for (const viaBus of [true, false]) {
      const e = await seedExecution(t().db, clock);
      const job = await enqueueFor(t().db, clock, e, { kind: "test.wait" });
      await waitFor(async () => track(job.id).started > 0);
      const c = await cancelJob(t().db, e.identity, job.id, new Date());
      expect(c?.cancel_requested_at).toBeTruthy();
      if (viaBus) signalCancel(job.id);
      const r = await waitFor(async () => {
        const x = await jobRow(t().db, job.id);
        return x.status === "canceled" && x;
      }, 5000);
      expect(r.error_code).toBe("canceled");
      expect(await effectsOf(t().db, job.id)).toEqual([]);
    }
  });

  it("another identity cannot cancel; a queued job cancels at once", async () => {
    const e = await seedExecution(t().db, clock);
    const other = await seedExecution(t().db, clock, { account: e.account }); // same user, another session
    await th.stop();
    const job = await enqueueFor(t().db, clock, e, { kind: "test.write" });
    expect(await cancelJob(t().db, other.identity, job.id, new Date())).toBeUndefined();
    expect((await cancelJob(t().db, e.identity, job.id, new Date()))?.status).toBe("canceled");
    th = await startTestHost(t(), handlers, { pollMs: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(track(job.id).started).toBe(0);
  });

  it("shutdown hands a restartable job back to the queue and abandons a fix job", async () => {
    const e = await seedExecution(t().db, clock);
    const wait = await enqueueFor(t().db, clock, e, { kind: "test.wait" });
    const fix = await enqueueFor(t().db, clock, e, { kind: "test.fixwait", pool: "fix", restartable: false, maxAttempts: 1 });
    await waitFor(async () => track(wait.id).started > 0 && track(fix.id).started > 0);
    await th.stop();
    expect(await jobRow(t().db, fix.id)).toMatchObject({ status: "abandoned", error_code: "interrupted" });
    expect(await jobRow(t().db, wait.id)).toMatchObject({ status: "queued", attempts: 1 });
    th = await startTestHost(t(), handlers, { pollMs: 30_000 });
    await waitFor(async () => track(wait.id).started > 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(track(fix.id).started).toBe(1);
    expect((await jobRow(t().db, fix.id)).status).toBe("abandoned");
    await cancelJob(t().db, e.identity, wait.id, new Date());
    signalCancel(wait.id);
  });
});

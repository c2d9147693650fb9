/**
 * The job SQL (queues/sql): claim, lease fencing, retries with backoff,
 * reclaim, fix abandonment, schedules — on PGlite and on PostgreSQL.
 */
import { expect, it } from "vitest";
import { suspendMember } from "../../core/accounts/accounts";
import { authorize, authorizeAll, type AuthorizeRequest, type AuthRow } from "../../core/authorize";
import { ManualClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { revokeSession } from "../../core/registry/registry";
import { inTransaction } from "../../core/transaction";
import { JobRegistry } from "../../queues/registry";
import { fireDueSchedules } from "../../queues/scheduler";
import { claimJobs, claimJobsChecked } from "../../queues/sql/claimJobs";
import { failJob } from "../../queues/sql/failJob";
import { finishJob, finishJobs } from "../../queues/sql/finishJob";
import { reclaimExpiredLeases } from "../../queues/sql/reclaimExpiredLeases";
import { renewLease } from "../../queues/sql/renewLease";
import { takeUndispatched } from "../../queues/sql/takeUndispatched";
import { upsertSchedule } from "../../queues/sql/upsertSchedule";
import { describeEachDatabase } from "../support/databases";
import { uniq } from "../support/fixtures";
import { anyParams, enqueueFor, jobRow, seedExecution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const LEASE = 1000;

await describeEachDatabase("job rows", (t) => {
  it("a job row carries identity and principal ids but no token, cookie or API key", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { params: { question: "why?" } });
    const raw = JSON.stringify(await jobRow(t().db, job.id));
    expect(job).toMatchObject({ status: "queued", tenant_id: e.identity.tenant_id, subject_id: e.identity.subject_id, session_id: e.identity.session_id, parent_session_id: e.identity.session_id, actor_user_id: e.account.userId, api_key_id: e.account.keyId, attempts: 0 });
    expect(raw).not.toContain(e.account.apiKey);
    expect(raw).not.toContain(e.account.apiKey.slice(-20));
    expect(raw).not.toContain(e.account.password);
    const keyHash = (await t().db.selectFrom("api_keys").select("key_hash").where("id", "=", e.account.keyId).executeTakeFirstOrThrow()).key_hash;
    expect(raw).not.toContain(keyHash);
  });

  it("job parameters, schedule parameters and results are stored redacted (finishJob, finishJobs)", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const pw = "Hunter2" + "-db-pass";
    const sk = "sk-" + "proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7cD0eF";
    const pool = "embedding";
    await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
    const job = await enqueueFor(t().db, clock, e, { pool, params: { problem: `fails with DB_PASSWORD=${pw}`, env: { OPENAI_API_KEY: sk } } });
    expect(job.params).toEqual({ problem: "fails with DB_PASSWORD=[REDACTED:credential]", env: { OPENAI_API_KEY: "[REDACTED:credential]" } });
    const other = await enqueueFor(t().db, clock, e, { pool });
    const sched = uniq("sched");
    await upsertSchedule(t().db, clock.now(), { id: sched, kind: "test.sched", params: { url: `redis://:${pw}@cache:6379` }, intervalMs: 60_000, identity: e.identity,
      actor: { userId: e.account.userId, apiKeyId: e.account.keyId, loginSessionId: null }, firstRunAt: clock.now() });
    const claimed = await claimJobs(t().db, { pool, workerId: "w", leaseMs: LEASE, limit: 2, now: clock.now() });
    const token = new Map(claimed.map((r) => [r.id, r.lease_token!]));
    expect(await finishJob(t().db, { id: job.id, token: token.get(job.id)!, now: clock.now(), result: { log: `used ${sk}` } })).toBe(true);
    await finishJobs(t().db, [{ id: other.id, token: token.get(other.id)!, now: clock.now(), result: { note: `password: ${pw}` } }]);
    const rows = JSON.stringify([
      await jobRow(t().db, job.id),
      await jobRow(t().db, other.id),
      await t().db.selectFrom("job_schedules").selectAll().where("id", "=", sched).executeTakeFirstOrThrow(),
    ]);
    for (const secret of [pw, sk]) expect(rows).not.toContain(secret);
    expect((await jobRow(t().db, job.id)).result).toEqual({ log: "used [REDACTED:openai_api_key]" });
    expect((await jobRow(t().db, other.id)).result).toEqual({ note: "password: [REDACTED:credential]" });
    expect(rows).toContain("redis://:[REDACTED:url_password]@cache:6379");
  });

  it("concurrent claims never hand out the same row; claim bumps attempts and sets a lease", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const pool = "embedding";
    await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await enqueueFor(t().db, clock, e, { pool })).id);
    const batches = await Promise.all(
      Array.from({ length: 5 }, (_, i) => claimJobs(t().db, { pool, workerId: `w${i}`, leaseMs: LEASE, limit: 6, now: clock.now() })),
    );
    const claimed = batches.flat();
    expect(claimed.length).toBe(20);
    expect(new Set(claimed.map((r) => r.id))).toEqual(ids);
    for (const r of claimed) {
      expect(r.status).toBe("running");
      expect(r.attempts).toBe(1);
      expect(r.lease_token).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.lease_expires_at!.getTime()).toBe(clock.now().getTime() + LEASE);
    }
    expect(new Set(claimed.map((r) => r.lease_token)).size).toBe(20);
  });

  it("claims by id (the BullMQ path) with the same function, and never a row that is not due", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const a = await enqueueFor(t().db, clock, e, { pool: "fix" });
    const b = await enqueueFor(t().db, clock, e, { pool: "fix" });
    const got = await claimJobs(t().db, { pool: "fix", workerId: "w", leaseMs: LEASE, limit: 5, now: clock.now(), ids: [b.id] });
    expect(got.map((r) => r.id)).toEqual([b.id]);
    expect((await jobRow(t().db, a.id)).status).toBe("queued");
    const wrongPool = await claimJobs(t().db, { pool: "ai", workerId: "w", leaseMs: LEASE, limit: 5, now: clock.now(), ids: [a.id] });
    expect(wrongPool).toEqual([]);
  });

  it("a stale worker whose lease was taken over cannot renew, finish or fail", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { pool: "ingest" });
    const [stale] = await claimJobs(t().db, { pool: "ingest", workerId: "old", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [job.id] });
    clock.advance(LEASE + 1);
    const reclaimed = await reclaimExpiredLeases(t().db, { now: clock.now() });
    expect(reclaimed.find((r) => r.id === job.id)?.status).toBe("queued");
    const [fresh] = await claimJobs(t().db, { pool: "ingest", workerId: "new", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [job.id] });
    expect(fresh!.attempts).toBe(2);
    expect(fresh!.session_id).toBe(e.identity.session_id);
    // The old worker: every write is refused by its token.
    expect((await renewLease(t().db, { id: job.id, token: stale!.lease_token!, now: clock.now(), leaseMs: LEASE })).ok).toBe(false);
    const committed = await inTransaction(t().db, (tx) => finishJob(tx, { id: job.id, token: stale!.lease_token!, now: clock.now(), result: { stale: true } }));
    expect(committed).toBe(false);
    expect(await failJob(t().db, { id: job.id, token: stale!.lease_token!, now: clock.now(), errorCode: "x", retryable: true })).toBeUndefined();
    // The new owner still holds it, and commits.
    expect(await inTransaction(t().db, (tx) => finishJob(tx, { id: job.id, token: fresh!.lease_token!, now: clock.now(), result: { ok: 1 } }))).toBe(true);
    const done = await jobRow(t().db, job.id);
    expect(done).toMatchObject({ status: "succeeded", result: { ok: 1 }, lease_token: null });
  });

  it("retries back off exponentially, keep the same row and primary session, and stop at max_attempts", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { pool: "ai", maxAttempts: 3 });
    const runAts: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [r] = await claimJobs(t().db, { pool: "ai", workerId: "w", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [job.id] });
      expect(r, `attempt ${attempt}`).toBeDefined();
      expect([r!.attempts, r!.session_id, r!.parent_session_id]).toEqual([attempt, e.identity.session_id, e.identity.session_id]);
      const f = await failJob(t().db, { id: job.id, token: r!.lease_token!, now: clock.now(), errorCode: "boom", retryable: true, backoffBaseMs: 1000 });
      if (attempt < 3) {
        expect(f!.status).toBe("queued");
        runAts.push(f!.runAt.getTime() - clock.now().getTime());
        // Not claimable before its run_at.
        expect(await claimJobs(t().db, { pool: "ai", workerId: "w", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [job.id] })).toEqual([]);
        clock.advance(f!.runAt.getTime() - clock.now().getTime());
      } else expect(f!.status).toBe("failed");
    }
    expect(runAts).toEqual([1000, 2000]);
    expect(await jobRow(t().db, job.id)).toMatchObject({ status: "failed", error_code: "boom", attempts: 3 });
  });

  it("an interrupted fix job (not restartable) ends abandoned and is never claimed again", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.fix", pool: "fix", restartable: false, maxAttempts: 1 });
    await claimJobs(t().db, { pool: "fix", workerId: "w", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [job.id] });
    clock.advance(LEASE);
    await reclaimExpiredLeases(t().db, { now: clock.now() });
    expect(await jobRow(t().db, job.id)).toMatchObject({ status: "abandoned", error_code: "interrupted", attempts: 1 });
    clock.advance(60_000);
    expect(await claimJobs(t().db, { pool: "fix", workerId: "w", leaseMs: LEASE, limit: 10, now: clock.now(), ids: [job.id] })).toEqual([]);
    expect(await takeUndispatched(t().db, { now: clock.now(), staleMs: 0 })).not.toContainEqual(expect.objectContaining({ id: job.id }));
  });

  it("a legacy schedule without identity fails closed: no job, disabled, coded", async () => {
    const clock = new ManualClock(Date.now());
    const registry = new JobRegistry().register({ kind: "test.sched", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams });
    const e = await seedExecution(t().db, clock);
    const legacy = uniq("legacy");
    await t().db
      .insertInto("job_schedules")
      .values({ id: legacy, kind: "test.sched", params: "{}", interval_ms: 60_000, system: false, enabled: true, next_run_at: clock.now(), created_at: clock.now(),
        tenant_id: e.identity.tenant_id, subject_id: null, session_id: null, parent_session_id: null, actor_user_id: null, api_key_id: null, login_session_id: null })
      .execute();
    const good = uniq("good");
    await upsertSchedule(t().db, clock.now(), { id: good, kind: "test.sched", params: { a: 1 }, intervalMs: 60_000, identity: e.identity,
      actor: { userId: e.account.userId, apiKeyId: e.account.keyId, loginSessionId: null }, firstRunAt: clock.now() });
    const fired = await fireDueSchedules(t().db, registry, clock.now());
    expect(fired.find((f) => f.scheduleId === legacy)).toEqual({ scheduleId: legacy, refused: "identity_missing" });
    const job = fired.find((f) => f.scheduleId === good)!.job!;
    expect(job).toMatchObject({ session_id: e.identity.session_id, schedule_id: good, params: { a: 1 } });
    expect(await t().db.selectFrom("jobs").select("id").where("schedule_id", "=", legacy).execute()).toEqual([]);
    const s = await t().db.selectFrom("job_schedules").selectAll().where("id", "=", legacy).executeTakeFirstOrThrow();
    expect([s.enabled, s.last_error_code]).toEqual([false, "identity_missing"]);
    // A later tick neither fires the legacy one again nor stacks a second live job on the good one.
    clock.advance(60_000);
    const again = await fireDueSchedules(t().db, registry, clock.now());
    expect(again.map((f) => f.scheduleId)).toContain(good);
    expect(again.map((f) => f.scheduleId)).not.toContain(legacy);
    expect(again.find((f) => f.scheduleId === good)!.job).toBeUndefined();
  });

  it("finishJobs (the batched finish) fences every row by its own lease token", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const pool = "embedding";
    await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
    for (let i = 0; i < 3; i++) await enqueueFor(t().db, clock, e, { pool });
    const [a, b, c] = await claimJobs(t().db, { pool, workerId: "w", leaseMs: LEASE, limit: 3, now: clock.now() });
    // b's lease expired and was taken over by another worker: its old token must not finish it.
    clock.advance(LEASE + 1);
    await reclaimExpiredLeases(t().db, { now: clock.now(), limit: 10 });
    const [b2] = await claimJobs(t().db, { pool, workerId: "other", leaseMs: LEASE, limit: 1, now: clock.now(), ids: [b!.id] });
    expect(b2!.lease_token).not.toBe(b!.lease_token);
    // a and c were reclaimed too (same expiry); give them fresh leases held by "w".
    const mine = await claimJobs(t().db, { pool, workerId: "w", leaseMs: LEASE, limit: 2, now: clock.now(), ids: [a!.id, c!.id] });
    const tokenOf = new Map(mine.map((r) => [r.id, r.lease_token!]));
    const done = await finishJobs(t().db, [
      { id: a!.id, token: tokenOf.get(a!.id)!, now: clock.now(), result: { n: 1 } },
      { id: b!.id, token: b!.lease_token!, now: clock.now(), result: { n: 2 } },
      { id: c!.id, token: "not-the-token", now: clock.now(), result: null },
    ]);
    expect([...done]).toEqual([a!.id]);
    expect(await jobRow(t().db, a!.id)).toMatchObject({ status: "succeeded", result: { n: 1 }, lease_token: null });
    expect(await jobRow(t().db, b!.id)).toMatchObject({ status: "running", lease_owner: "other", lease_token: b2!.lease_token, result: null });
    expect(await jobRow(t().db, c!.id)).toMatchObject({ status: "running", lease_token: tokenOf.get(c!.id) });
  });

  it("authorizeAll (checks asked together, read by one statement) answers each request exactly as authorize() does", async () => {
    const clock = new ManualClock(Date.now());
    const ok = await seedExecution(t().db, clock);
    const revoked = await seedExecution(t().db, clock);
    await revokeSession(identityStore(t().db), clock, { ...revoked.principal, role: "member" }, revoked.identity.session_id);
    const suspended = await seedExecution(t().db, clock);
    await suspendMember(identityStore(t().db), { orgId: suspended.account.orgId, userId: suspended.account.userId, at: clock.now() });
    const req = (x: typeof ok, repo?: AuthorizeRequest["repo"], sessionId = x.identity.session_id): AuthorizeRequest => ({ principal: x.principal, sessionId, ...(repo ? { repo } : {}) });
    const reqs: AuthorizeRequest[] = [
      req(ok),
      req(ok, { ref: ok.account.repoId, level: "read" }),
      req(ok, { ref: ok.account.repoId, level: "admin" }),
      req(ok, { ref: revoked.account.repoId, level: "read" }), // another org's repository
      req(ok, { ref: "", level: "read" }),
      req(ok, undefined, "not a valid id"),
      req(ok, undefined, revoked.identity.session_id), // someone else's binding
      req(revoked, { ref: revoked.account.repoId, level: "read" }),
      req(suspended),
    ];
    const one = await Promise.all(
      reqs.map((r) => authorize(identityStore(t().db), clock, r.principal, r.sessionId, r.repo ? { repo: r.repo } : {}).catch((err: unknown) => err)),
    );
    const many = await Promise.all(authorizeAll(identityStore(t().db), clock, reqs).map((p) => p.catch((err: unknown) => err)));
    const shape = (x: unknown) => (x instanceof AppError ? { code: x.code } : x);
    expect(many.map(shape)).toEqual(one.map(shape));
    expect(many.map((x) => (x instanceof AppError ? x.code : "ok"))).toEqual([
      "ok", "ok", "repo_permission_denied", "repo_not_found", "repo_not_found", "invalid_session_header", "session_forbidden", "session_revoked", "membership_suspended",
    ]);
  });

  it("claimJobsChecked: the claim's own read gives each claimed row exactly authorize()'s answer", async () => {
    const clock = new ManualClock(Date.now());
    const pool = "ingest";
    await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
    const ok = await seedExecution(t().db, clock);
    const revoked = await seedExecution(t().db, clock);
    const suspended = await seedExecution(t().db, clock);
    const jobs = [
      await enqueueFor(t().db, clock, ok, { pool }),
      await enqueueFor(t().db, clock, ok, { pool, repoId: revoked.account.repoId }), // another org's repository
      await enqueueFor(t().db, clock, ok, { pool, repoId: null }),
      await enqueueFor(t().db, clock, revoked, { pool }),
      await enqueueFor(t().db, clock, suspended, { pool }),
    ];
    // Changed after enqueue, before the claim: the claim's read must see it.
    await revokeSession(identityStore(t().db), clock, { ...revoked.principal, role: "member" }, revoked.identity.session_id);
    await suspendMember(identityStore(t().db), { orgId: suspended.account.orgId, userId: suspended.account.userId, at: clock.now() });
    const claimed = await claimJobsChecked(t().db, { pool, workerId: "w", leaseMs: LEASE, limit: 10, now: clock.now() });
    expect(claimed.map((c) => c.row.id).sort()).toEqual(jobs.map((j) => j.id).sort());
    // authorize() on the claim's read, handed over as a fresh earlier read (no statement of its own).
    const onRead = (req: AuthorizeRequest, row: AuthRow | undefined) =>
      authorize(identityStore(t().db), clock, req.principal, req.sessionId, { repo: req.repo, earlier: { row, at: performance.now(), of: { sessionId: req.sessionId, repoRef: req.repo?.ref } } }).catch((err: unknown) => err);
    const shape = (x: unknown) => (x instanceof AppError ? x.code : "ok");
    for (const { row, auth } of claimed) {
      expect(row).toMatchObject({ status: "running", lease_owner: "w", attempts: 1 });
      expect(Object.keys(row).some((k) => k.startsWith("auth_"))).toBe(false);
      expect(auth).toBeDefined();
      const req: AuthorizeRequest = {
        principal: { orgId: row.tenant_id!, userId: row.actor_user_id!, apiKeyId: row.api_key_id, loginSessionId: row.login_session_id },
        sessionId: row.session_id!,
        ...(row.repo_id ? { repo: { ref: row.repo_id, level: "read" as const } } : {}),
      };
      const single = await authorize(identityStore(t().db), clock, req.principal, req.sessionId, req.repo ? { repo: req.repo } : {}).catch((err: unknown) => err);
      expect(shape(await onRead(req, auth))).toBe(shape(single));
    }
    const codes = new Map(await Promise.all(claimed.map(async (c) => [c.row.id, shape(await onRead({
      principal: { orgId: c.row.tenant_id!, userId: c.row.actor_user_id!, apiKeyId: c.row.api_key_id, loginSessionId: c.row.login_session_id },
      sessionId: c.row.session_id!,
      ...(c.row.repo_id ? { repo: { ref: c.row.repo_id, level: "read" as const } } : {}),
    }, c.auth))] as const)));
    expect(jobs.map((j) => codes.get(j.id))).toEqual(["ok", "repo_not_found", "ok", "session_revoked", "membership_suspended"]);
  });
});

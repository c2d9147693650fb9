/**
 * Failures that say why, and the operators' actions on them, over the real runner and the real
 * app, on PGlite and PostgreSQL:
 *  - a failed job carries a safe sentence beside its code, in the row, the job API's view and
 *    every attempt of its history; a message that would show a secret, a token or an ID, and an
 *    unexpected error's own text, fall back to the code's fixed sentence;
 *  - each attempt is recorded (lease owner, timings, outcome, error) by the trigger;
 *  - the operators' API: retry of a failed job and replay of a group run a new attempt of the same
 *    row under the same identity, rechecked (a suspended member's replayed job is refused again),
 *    audited; fix jobs are never retried; cancel; non-admins are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../api/app";
import { suspendMember } from "../../core/accounts/accounts";
import { systemClock } from "../../core/clock";
import { AppError, ERRORS } from "../../core/errors";
import { codeMessage, failureMessage, JOB_FAILURES } from "../../core/jobs/failure";
import { jobView } from "../../ops/job-view";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { seedAccount, uniq } from "../support/fixtures";
import { bearer, call, listen, type TestServer } from "../support/http";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;
const SECRET = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
const TERMINAL = new Set(["succeeded", "failed", "canceled", "abandoned", "refused"]);
/** Jobs whose handler fails (4xx, not retried) while their id is in here. */
/** Tags of the jobs that fail with `conflict` while their tag is here (set before the job exists: it may run at once). */
const broken = new Set<string>();
const runs = new Map<string, string[]>();

const handlers: JobHandler[] = [
  defineHandler({
    kind: "test.says", pool: "ai", restartable: true, maxAttempts: 3, params: anyParams,
    async run({ job, auth }) {
      runs.set(job.id, [...(runs.get(job.id) ?? []), auth!.identity.session_id]);
      const how = (job.params as { how?: string }).how;
      if (how === "safe") throw new AppError("validation_failed", { message: "No snapshot path was given and the repository has no ingest to use." });
      if (how === "secret") throw new AppError("validation_failed", { message: `The token ${SECRET} is not accepted.` });
      if (how === "id") throw new AppError("validation_failed", { message: `No such repository: ${job.repo_id}.` });
      if (how === "crash") throw new Error(`driver said: password=${SECRET}`);
      if (how === "flaky" && (runs.get(job.id)?.length ?? 0) <= 2) throw new Error("transient");
      if (broken.has(String((job.params as { tag?: string }).tag))) throw new AppError("conflict", { message: "The repository's snapshot is not there yet." });
      return { result: { ok: true } };
    },
  }),
  defineHandler({
    kind: "test.fix", pool: "fix", restartable: false, maxAttempts: 1, params: anyParams,
    async run() {
      throw new AppError("patch_does_not_apply");
    },
  }),
];

describe("failureMessage", () => {
  it("keeps a safe AppError message and falls back to the code's sentence otherwise", () => {
    expect(failureMessage("validation_failed", new AppError("validation_failed", { message: "Missing --org." }))).toBe("Missing --org.");
    for (const bad of [`key ${SECRET}`, "job job_0123456789abcdef failed", "session 3f2c1a9e-1b2c-4d5e-8f90-aabbccddeeff", "x".repeat(301)]) {
      expect(failureMessage("validation_failed", new AppError("validation_failed", { message: bad }))).toBe(ERRORS.validation_failed.message);
    }
    expect(failureMessage("handler_failed", new Error(`boom ${SECRET}`))).toBe(JOB_FAILURES.handler_failed);
    // A message of another code than the one recorded is not used.
    expect(failureMessage("lease_expired", new AppError("conflict", { message: "Something else." }))).toBe(JOB_FAILURES.lease_expired);
    expect(codeMessage("no_such_code")).toBe("The job ended with this error code.");
  });
});

await describeEachDatabase("failed jobs say why; operators retry, replay and cancel", (t) => {
  let th: TestHost;
  let srv: TestServer;
  let adminKey: string;
  const settle = (id: string) => waitFor(async () => {
    const r = await jobRow(t().db, id);
    return TERMINAL.has(r.status) ? r : undefined;
  }, 20_000);
  const attempts = (id: string) => t().db.selectFrom("job_attempts").selectAll().where("job_id", "=", id).orderBy("attempt").execute();

  beforeAll(async () => {
    th = await startTestHost(t(), handlers);
    const ctx = testContext(t().db, { clock });
    ctx.jobs = { db: t().db, identity: identityStore, clock, registry: th.registry, dispatcher: th.dispatcher };
    srv = await listen(createApp(ctx));
    adminKey = (await seedAccount(t().db, { platformAdmin: true })).apiKey;
  });
  afterAll(async () => {
    await srv?.close();
    await th?.stop();
  });

  it("a failed job's reason is in the row, the job view and its attempt; leaking messages are replaced", async () => {
    const e = await seedExecution(t().db, clock);
    const safe = await settle((await enqueueFor(t().db, clock, e, { kind: "test.says", params: { how: "safe" } })).id);
    expect([safe.status, safe.error_code]).toEqual(["failed", "validation_failed"]);
    expect(jobView(safe).message).toBe("No snapshot path was given and the repository has no ingest to use.");
    const [a] = await attempts(safe.id);
    expect(a).toMatchObject({ attempt: 1, outcome: "failed", error_code: "validation_failed", error_message: jobView(safe).message });
    expect(a!.lease_owner).toMatch(/^w-/);
    expect(a!.started_at!.getTime()).toBeLessThanOrEqual(a!.ended_at.getTime());

    for (const how of ["secret", "id", "crash"]) {
      const done = await settle((await enqueueFor(t().db, clock, e, { kind: "test.says", params: { how }, maxAttempts: 1 })).id);
      const view = jobView(done);
      expect(view.message, how).toBe(how === "crash" ? JOB_FAILURES.handler_failed : ERRORS.validation_failed.message);
      const everything = JSON.stringify({ row: { ...done, params: null }, attempts: await attempts(done.id) });
      expect(everything).not.toContain(SECRET);
      expect(everything.match(new RegExp(e.account.repoId, "g"))?.length ?? 0).toBe(1); // the row's own repo_id column only
      // And the operators' API shows the same, no more.
      const admin = await call(srv.url, "GET", `/api/v1/admin/jobs/${done.id}`, { headers: bearer(adminKey) });
      expect(admin.status).toBe(200);
      expect(admin.text).not.toContain(SECRET);
      expect(admin.body.job.message).toBe(view.message);
    }
  });

  it("each attempt of a retried job is recorded; success clears the reason", async () => {
    const e = await seedExecution(t().db, clock);
    const done = await settle((await enqueueFor(t().db, clock, e, { kind: "test.says", params: { how: "flaky" } })).id);
    expect(done.status).toBe("succeeded");
    expect(jobView(done)).toMatchObject({ error_code: null, message: null, attempts: 3 });
    const history = await attempts(done.id);
    expect(history.map((h) => [h.attempt, h.outcome, h.error_code])).toEqual([
      [1, "queued", "handler_failed"],
      [2, "queued", "handler_failed"],
      [3, "succeeded", null],
    ]);
    expect(history[0]!.error_message).toBe(JOB_FAILURES.handler_failed);
  });

  it("retry: a failed job runs again as the same row and identity, audited; fix jobs are never retried; non-admins are refused", async () => {
    const e = await seedExecution(t().db, clock);
    const tag = uniq("broken");
    broken.add(tag);
    const job = await enqueueFor(t().db, clock, e, { kind: "test.says", params: { tag }, maxAttempts: 1 });
    expect((await settle(job.id)).error_code).toBe("conflict");
    const member = await seedAccount(t().db, { orgId: e.account.orgId });
    expect((await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/retry`, { headers: bearer(member.apiKey) })).status).toBe(403);
    expect((await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/retry`)).status).toBe(401);

    broken.delete(tag);
    const r = await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/retry`, { headers: bearer(adminKey) });
    expect(r.status, r.text).toBe(202);
    const again = await settle(job.id);
    expect([again.status, again.attempts, again.error_code]).toEqual(["succeeded", 2, null]);
    expect(runs.get(job.id)).toEqual([e.identity.session_id, e.identity.session_id]);
    expect((await attempts(job.id)).map((h) => h.outcome)).toEqual(["failed", "succeeded"]);
    const audit = await t().db.selectFrom("audit_log").selectAll().where("action", "=", "job.retry").where("org_id", "=", e.account.orgId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).not.toBeNull();
    // A second retry of a job that succeeded is a conflict, said in words.
    const twice = await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/retry`, { headers: bearer(adminKey) });
    expect([twice.status, twice.body.error.message]).toEqual([409, "Only a failed or refused job can be retried."]);

    const fix = await settle((await enqueueFor(t().db, clock, e, { kind: "test.fix", pool: "fix", restartable: false, maxAttempts: 1 })).id);
    expect(fix.status).toBe("failed");
    const nope = await call(srv.url, "POST", `/api/v1/admin/jobs/${fix.id}/retry`, { headers: bearer(adminKey) });
    expect([nope.status, nope.body.error.details.reason]).toEqual([409, "not_restartable"]);
  });

  it("replay of a group (kind + error code): every job of it runs again, rechecked: a suspended member's job is refused", async () => {
    const e = await seedExecution(t().db, clock);
    const gone = await seedExecution(t().db, clock);
    const kind = "test.says";
    const ids: string[] = [];
    const tag = uniq("broken");
    broken.add(tag);
    for (const ex of [e, e, gone]) ids.push((await enqueueFor(t().db, clock, ex, { kind, params: { tag }, maxAttempts: 1 })).id);
    for (const id of ids) expect((await settle(id)).error_code).toBe("conflict");
    await suspendMember(identityStore(t().db), { orgId: gone.account.orgId, userId: gone.account.userId, at: new Date() });
    broken.delete(tag);

    const list = await call(srv.url, "GET", `/api/v1/admin/jobs?kind=${kind}&error_code=conflict&status=failed`, { headers: bearer(adminKey) });
    expect(list.status).toBe(200);
    const group = list.body.failure_groups.find((g: { kind: string; error_code: string }) => g.kind === kind && g.error_code === "conflict");
    expect(group.message).toBe("The repository's snapshot is not there yet.");
    expect(group.requeueable).toBeGreaterThanOrEqual(3);
    expect(list.body.jobs.find((j: { id: string }) => j.id === ids[0])).toMatchObject({ org_name: expect.any(String), status: "failed" });

    const needsFilter = await call(srv.url, "POST", "/api/v1/admin/jobs/replay", { headers: bearer(adminKey), body: {} });
    expect(needsFilter.status).toBe(400);
    const r = await call(srv.url, "POST", "/api/v1/admin/jobs/replay", { headers: bearer(adminKey), body: { kind, error_code: "conflict", org: e.account.orgId } });
    expect(r.status, r.text).toBe(202);
    expect(r.body.job_ids.sort()).toEqual([ids[0], ids[1]].sort());
    const r2 = await call(srv.url, "POST", "/api/v1/admin/jobs/replay", { headers: bearer(adminKey), body: { kind, error_code: "conflict", org: gone.account.orgId } });
    expect(r2.body.job_ids).toEqual([ids[2]]);
    expect((await settle(ids[0]!)).status).toBe("succeeded");
    expect((await settle(ids[1]!)).status).toBe("succeeded");
    const refused = await settle(ids[2]!);
    expect([refused.status, refused.error_code, jobView(refused).message]).toEqual(["refused", "membership_suspended", ERRORS.membership_suspended.message]);
    const audits = await t().db.selectFrom("audit_log").select(["org_id", "details"]).where("action", "=", "job.replay").where("org_id", "in", [e.account.orgId, gone.account.orgId]).execute();
    expect(audits).toHaveLength(2);
  });

  it("cancel: a queued job ends canceled at once, audited; a finished one is left as it is", async () => {
    const e = await seedExecution(t().db, clock);
    // A pool no worker here runs: it waits queued.
    const job = await enqueueFor(t().db, clock, e, { kind: "test.waits", pool: "embedding" });
    const r = await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/cancel`, { headers: bearer(adminKey) });
    expect([r.status, r.body.job.status, r.body.job.message]).toEqual([202, "canceled", JOB_FAILURES.canceled]);
    const again = await call(srv.url, "POST", `/api/v1/admin/jobs/${job.id}/cancel`, { headers: bearer(adminKey) });
    expect([again.status, again.body.canceled]).toEqual([200, false]);
    expect((await call(srv.url, "GET", "/api/v1/admin/jobs/job_does_not_exist", { headers: bearer(adminKey) })).status).toBe(404);
  });
});

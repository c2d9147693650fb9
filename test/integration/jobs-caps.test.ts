/**
 * Caps on queued jobs (queues/caps.ts) at submission, on PGlite and PostgreSQL: per organisation
 * and per session, per pool. A submission past a cap is refused with 429 `rate_limited` naming
 * the limit, its maximum and the pool, writes nothing, and is counted in
 * codesynapse_job_limit_refusals_total{pool,limit} — no organisation or session label. Submissions
 * made together (one flush) are counted against each other. A claimed job frees its place.
 * (The running cap is the claim's: jobs-fair.test.ts.)
 */
import { beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { silentLogger } from "../../core/log";
import { admit } from "../../queues/caps";
import { JobMetrics } from "../../queues/metrics";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import { claimJobs } from "../../queues/sql/claimJobs";
import { submitJob, type JobQueue } from "../../queues/submit";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { anyParams, seedExecution, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;
const registry = new JobRegistry<JobHandler>()
  .register(defineHandler({ kind: "test.cap.ai", pool: "ai", restartable: true, maxAttempts: 3, params: anyParams, run: async () => ({}) }))
  .register(defineHandler({ kind: "test.cap.fix", pool: "fix", restartable: false, maxAttempts: 1, params: anyParams, run: async () => ({}) }));

it("admit: the flush's own submissions count against the caps, session cap before organisation cap", () => {
  const caps = { perOrg: { ai: 3 }, perSession: { ai: 2 } };
  const r = (session: string) => ({ pool: "ai", org: "o1", session });
  const out = admit(caps, [{ pool: "ai", tenant_id: "o1", session_id: "s1", n: 1 }], [r("s1"), r("s1"), r("s2"), r("s2"), { pool: "fix", org: "o1", session: "s1" }]);
  expect(out).toEqual([undefined, { limit: "jobs_queued_per_session", max: 2 }, undefined, { limit: "jobs_queued_per_org", max: 3 }, undefined]);
});

await describeEachDatabase("caps on queued jobs", (t) => {
  let queue: JobQueue;
  let metrics: JobMetrics;
  beforeAll(() => {
    metrics = new JobMetrics();
    queue = createJobQueue({ db: t().db, identity: identityStore, clock, logger: silentLogger(), registry }).queue;
    queue.caps = { perOrg: { ai: 4 }, perSession: { ai: 3 } };
    queue.onLimit = (pool, limit) => metrics.limited(pool, limit);
  });
  const submit = (e: Execution, kind = "test.cap.ai") => submitJob(queue, e.identity, e.principal, { kind, params: {} });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };
  const queuedOf = async (e: Execution) =>
    Number((await t().db.selectFrom("jobs").select((eb) => eb.fn.countAll<string>().as("n")).where("tenant_id", "=", e.identity.tenant_id).where("status", "=", "queued").executeTakeFirstOrThrow()).n);

  it("per session: the 4th queued job of a session is 429 rate_limited naming jobs_queued_per_session; another pool is not capped", async () => {
    const e = await seedExecution(t().db, clock);
    for (let i = 0; i < 3; i++) await submit(e);
    const err = await refusal(submit(e));
    expect(err.status).toBe(429);
    expect(err.code).toBe("rate_limited");
    expect(err.details).toMatchObject({ limit: "jobs_queued_per_session", max: 3, pool: "ai" });
    expect(Number(err.details!.retry_after_s)).toBeGreaterThan(0);
    expect(err.message).not.toContain(e.identity.session_id);
    expect(await queuedOf(e)).toBe(3);
    await submit(e, "test.cap.fix");
  });

  it("per organisation: sessions of one organisation share its cap; submissions made together count against each other", async () => {
    const s1 = await seedExecution(t().db, clock);
    const s2 = await seedExecution(t().db, clock, { account: s1.account });
    const other = await seedExecution(t().db, clock);
    // Six at once (one flush): 3 + 1 fit the organisation's 4; the rest are refused.
    const results = await Promise.allSettled([submit(s1), submit(s1), submit(s1), submit(s2), submit(s2), submit(s2)]);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(refused.map((e) => [e.code, e.details?.limit])).toEqual([["rate_limited", "jobs_queued_per_org"], ["rate_limited", "jobs_queued_per_org"]]);
    expect(await queuedOf(s1)).toBe(4);
    // Another organisation is not affected.
    await submit(other);
    // A claimed (running) job no longer counts as queued: one more fits.
    await claimJobs(t().db, { pool: "ai", workerId: "w", leaseMs: 60_000, limit: 1, now: clock.now(), ids: [(await t().db.selectFrom("jobs").select("id").where("tenant_id", "=", s1.identity.tenant_id).executeTakeFirstOrThrow()).id] });
    await submit(s2);
    await refusal(submit(s2));
  });

  it("refusals are counted per pool and limit, with no organisation, session or user label", async () => {
    const text = await metrics.registry.metrics();
    const lines = text.split("\n").filter((l) => l.startsWith("codesynapse_job_limit_refusals_total{"));
    expect(lines.some((l) => l.includes('limit="jobs_queued_per_session"') && l.includes('pool="ai"'))).toBe(true);
    expect(lines.some((l) => l.includes('limit="jobs_queued_per_org"'))).toBe(true);
    for (const l of lines) expect(l).toMatch(/^codesynapse_job_limit_refusals_total\{pool="[a-z]+",limit="[a-z_]+"\} [0-9]+$/);
  });
});

/**
 * When the PostgreSQL-only source claims (workers/sources/postgres.ts), on
 * both stores, with a poll interval far beyond the test's timeouts so that
 * only wake-ups can move work (and no reconciler pass to re-announce rows).
 * The pools' notifications are the test's own (`announce`): a NOTIFY channel
 * is shared by every schema of the database, so the real one would also carry
 * the wake-ups of test files running alongside, each a claim of its own.
 * - a backlog larger than the pool's slots drains without the poll: a slot
 *   freeing wakes the claim that the full one left waiting;
 * - a drained pool claims once per notified job: a finished job's freed slot
 *   does not send a claim that can only find nothing (nor the follow-up read
 *   of the next due time);
 * - under a running cap a short claim may mean "capped", not drained: a job
 *   ending starts its organisation's next row without the poll.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { defineHandler } from "../../workers/handler";
import { describeEachDatabase, type TestDatabase } from "../support/databases";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";

const clock = systemClock;

/** Counts the claims (and next-due reads) sent through the handle it is plugged into. */
class ClaimCounter implements KyselyPlugin {
  claims = 0;
  nextDueReads = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const text = JSON.stringify(args.node);
    if (text.includes("set status = 'running'")) this.claims++;
    else if (text.includes("min(run_at)")) this.nextDueReads++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** A stand-in for the NOTIFY listener: `announce(pool)` delivers a wake-up to whoever listens. */
function notifications() {
  const listeners = new Set<(pool: string) => void>();
  return {
    listen: async (_channel: string, onPayload: (payload: string) => void) => {
      listeners.add(onPayload);
      return async () => void listeners.delete(onPayload);
    },
    announce: (pool: string) => listeners.forEach((l) => l(pool)),
  };
}

const quick = defineHandler({ kind: "test.wakes", pool: "ai", restartable: true, maxAttempts: 1, params: anyParams, run: async () => ({ result: null }) });
/** The same in another pool, for a second host of its own. */
const quickFix = defineHandler({ kind: "test.wakes.fix", pool: "fix", restartable: true, maxAttempts: 1, params: anyParams, run: async () => ({ result: null }) });

await describeEachDatabase("PostgreSQL source wake-ups", (t) => {
  let th: TestHost;
  const counter = new ClaimCounter();
  const wakes = notifications();
  beforeAll(async () => {
    const counted: TestDatabase = { ...t(), db: t().db.withPlugin(counter) };
    th = await startTestHost(counted, [quick], { concurrency: { ai: 4 }, pollMs: 600_000, reconcileMs: 600_000, listen: wakes.listen });
  });
  afterAll(async () => th?.stop());

  it("a backlog beyond the slots drains on slot wake-ups, not the poll", async () => {
    const e = await seedExecution(t().db, clock);
    // Twelve rows, one wake-up.
    const jobs = [];
    for (let i = 0; i < 12; i++) jobs.push(await enqueueFor(t().db, clock, e, { kind: "test.wakes" }));
    wakes.announce("ai");
    for (const j of jobs) await waitFor(async () => (await jobRow(t().db, j.id)).status === "succeeded", 10_000);
  });

  it("a drained pool claims once per notified job, not once per finished job", async () => {
    const e = await seedExecution(t().db, clock);
    // Settle: the previous backlog's last wake-ups have run.
    await new Promise((r) => setTimeout(r, 300));
    counter.claims = 0;
    counter.nextDueReads = 0;
    const n = 8;
    for (let i = 0; i < n; i++) {
      const job = await enqueueFor(t().db, clock, e, { kind: "test.wakes" });
      wakes.announce("ai");
      await waitFor(async () => (await jobRow(t().db, job.id)).status === "succeeded", 10_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    // One claim per wake-up; a wake-up that lands while a claim is on its way may cost one
    // more. A claim per freed slot would be three per job.
    expect(counter.claims).toBeGreaterThanOrEqual(n);
    expect(counter.claims).toBeLessThanOrEqual(n + 2);
    expect(counter.nextDueReads).toBeLessThanOrEqual(2);
  });

  it("under a running cap, a job ending starts its organisation's next row without the poll", async () => {
    const own = notifications();
    const capped = await startTestHost(t(), [quickFix], { concurrency: { fix: 4 }, pollMs: 600_000, reconcileMs: 600_000, fair: { runningPerOrg: { fix: 1 } }, listen: own.listen });
    try {
      const e = await seedExecution(t().db, clock);
      // One wake-up for three rows of one organisation: the first claim takes one (the cap), the rest wait for room.
      const jobs = [];
      for (let i = 0; i < 3; i++) jobs.push(await enqueueFor(t().db, clock, e, { kind: "test.wakes.fix", pool: "fix" }));
      own.announce("fix");
      for (const j of jobs) await waitFor(async () => (await jobRow(t().db, j.id)).status === "succeeded", 10_000);
    } finally {
      await capped.stop();
    }
  });
});

/**
 * Fair share end to end, on both dispatch paths (PostgreSQL claim loop; BullMQ, whose queue is
 * FIFO and whose messages then act as turns), with the rows on PGlite and PostgreSQL: A's
 * backlog of 30 is queued before B's 4, the pool runs 2 handlers, and the order in which the
 * handlers start is recorded. With fair share, B's four start before half of A's backlog has
 * (FAIR_BOUND); the same backlog without it (FIFO, checked in the same test) starts B's first job
 * only after all of A's. On a quiet machine B's last start is the 8th or 9th; the exact place
 * depends on timing (when slots free up, how far the adaptive claim-ahead reaches at the pool's
 * measured pace), and on a loaded CI machine it was seen at the 13th: the bound sits between that
 * and where FIFO puts B, so it fails when fair share is lost, not when the machine is busy.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import type { BullOptions } from "../../queues/dispatch/bullmq";
import type { JobRow } from "../../queues/jobs";
import { defineHandler } from "../../workers/handler";
import type { FairDispatch } from "../../workers/host";
import { describeEachDatabase } from "../support/databases";
import { startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, seedExecution, waitFor } from "../support/jobs";
import { probeService, REQUIRE_SERVICES } from "../support/services";

const clock = systemClock;
const redisStatus = await probeService("redis");
const A_JOBS = 30;
const B_JOBS = 4;
/** B's last start comes before this index with fair share (FIFO: B's first at A_JOBS - 4 or later). */
const FAIR_BOUND = A_JOBS / 2;

await describeEachDatabase("fair share, both dispatch paths", (t) => {
  /** Runs A's backlog then B's through a fresh host; returns the tenant of each job in the order its handler started. */
  async function startOrder(fair: FairDispatch | undefined, bull: BullOptions | undefined): Promise<{ order: string[]; a: string; b: string }> {
    await t().db.deleteFrom("jobs").where("pool", "=", "ai").execute();
    const order: string[] = [];
    const kind = `test.fair.${randomBytes(3).toString("hex")}`;
    const handler = defineHandler({
      kind, pool: "ai", restartable: true, maxAttempts: 3, params: anyParams,
      async run({ job }) {
        order.push(job.tenant_id!);
        await new Promise((r) => setTimeout(r, 10));
        return { result: null };
      },
    });
    const a = await seedExecution(t().db, clock);
    const b = await seedExecution(t().db, clock);
    const rows: JobRow[] = [];
    for (let i = 0; i < A_JOBS; i++) rows.push(await enqueueFor(t().db, clock, a, { kind, pool: "ai" }));
    for (let i = 0; i < B_JOBS; i++) rows.push(await enqueueFor(t().db, clock, b, { kind, pool: "ai" }));
    const th = await startTestHost(t(), [handler], { concurrency: { ai: 2 }, ...(bull ? { bull } : {}), ...(fair ? { fair } : {}) });
    try {
      await th.dispatcher.dispatch(rows, clock.now());
      await waitFor(async () => order.length >= A_JOBS + B_JOBS, 60_000);
    } finally {
      await th.stop();
    }
    if (process.env.DEBUG_FAIR) console.log(fair, order.map((x) => (x === a.identity.tenant_id ? "A" : x === b.identity.tenant_id ? "B" : "?")).join(""));
    return { order, a: a.identity.tenant_id, b: b.identity.tenant_id };
  }

  const lastStartOf = (r: { order: string[]; b: string }) => r.order.lastIndexOf(r.b);
  const firstStartOf = (r: { order: string[]; b: string }) => r.order.indexOf(r.b);

  it("PostgreSQL dispatch: B's jobs start before half of A's though A's 30 were queued first (FIFO: after all of A's)", async () => {
    const fair = await startOrder({}, undefined);
    expect(fair.order.length).toBe(A_JOBS + B_JOBS);
    expect(lastStartOf(fair)).toBeLessThan(FAIR_BOUND);
    const fifo = await startOrder(undefined, undefined);
    expect(firstStartOf(fifo)).toBeGreaterThanOrEqual(A_JOBS - 4);
  });

  it("BullMQ dispatch: the same, the messages taking turns in the fair order of the claim", async (ctx) => {
    if (!redisStatus.available) {
      if (REQUIRE_SERVICES) throw new Error(`REQUIRE_SERVICES=1 but ${redisStatus.reason}`);
      ctx.skip();
      return;
    }
    const prefix = `cs-test-${randomBytes(4).toString("hex")}`;
    const bull = { url: redisStatus.url!, prefix };
    try {
      const fair = await startOrder({}, { ...bull, prefix: `${prefix}-f` });
      expect(fair.order.length).toBe(A_JOBS + B_JOBS);
      expect(lastStartOf(fair)).toBeLessThan(FAIR_BOUND);
      const fifo = await startOrder(undefined, { ...bull, prefix: `${prefix}-o` });
      expect(firstStartOf(fifo)).toBeGreaterThanOrEqual(A_JOBS - 4);
    } finally {
      const r = new Redis(redisStatus.url!);
      const keys = await r.keys(`${prefix}*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    }
  });
});

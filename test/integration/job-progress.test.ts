/**
 * Job progress (workers/progress.ts) over the real runner, on PGlite and PostgreSQL: a handler
 * may report without awaiting and return at once, and the row still shows its last report once
 * the job has ended — succeeded or failed — because the runner lets the writes settle before it
 * writes the outcome (a report landing after the finish would find the row no longer running
 * and be dropped: the flake this test pins). Reports never land out of order.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { jobView } from "../../ops/job-view";
import { defineHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { startTestHost, type TestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";

const clock = systemClock;
const REPORTS = 200;

const burst = (kind: string, fail: boolean) =>
  defineHandler({
    kind,
    pool: "ai",
    restartable: true,
    maxAttempts: 1,
    params: anyParams,
    async run({ progress }) {
      // Fire and forget, as a parser loop does: nothing here waits for a write.
      for (let i = 1; i <= REPORTS; i++) void progress?.(i, REPORTS);
      if (fail) throw new Error("the handler failed after its last report");
      return {};
    },
  });

await describeEachDatabase("job progress", (t) => {
  let th: TestHost;
  beforeAll(async () => {
    th = await startTestHost(t(), [burst("test.progress.ok", false), burst("test.progress.fail", true)]);
  });
  afterAll(async () => th?.stop());

  const run = async (kind: string) => {
    const e = await seedExecution(t().db, clock);
    const job = await enqueueFor(t().db, clock, e, { kind, maxAttempts: 1 });
    await th.dispatcher.dispatch([job], clock.now());
    return waitFor(async () => {
      const r = await jobRow(t().db, job.id);
      return r.status === "running" || r.status === "queued" ? undefined : r;
    }, 20_000);
  };

  it("a handler that reports without waiting and returns at once: the ended row shows its last report", async () => {
    for (let i = 0; i < 5; i++) {
      const row = await run("test.progress.ok");
      expect(row.status).toBe("succeeded");
      expect(jobView(row).progress).toEqual({ done: REPORTS, total: REPORTS });
    }
  });

  it("a handler that fails after reporting: the failed row shows its last report too", async () => {
    const row = await run("test.progress.fail");
    expect(row.status).toBe("failed");
    expect(jobView(row).progress).toEqual({ done: REPORTS, total: REPORTS });
  });
});

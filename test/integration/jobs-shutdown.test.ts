/**
 * A worker host's graceful stop (docs/architecture.md "Shutdown"): it takes no
 * new job, a handler that finishes within the drain persists its work, and one
 * that does not is handed back at once (queued again, nothing written), all
 * within the drain bound. On PGlite and on the real PostgreSQL server.
 */
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { systemClock } from "../../core/clock";
import { defineHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { effectsOf, ensureEffectsTable, startTestHost } from "../support/job-host";
import { anyParams, enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";

const clock = systemClock;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

/** The jobs whose handler has started. */
const started = new Set<string>();

/** Works `ms` (or until aborted), then writes one effect row in the fenced persist step. */
const working = (kind: string, ms: number) =>
  defineHandler({
    kind,
    pool: "ingest",
    restartable: true,
    maxAttempts: 3,
    params: anyParams,
    async run({ job, signal }) {
      started.add(job.id);
      await sleep(ms, signal);
      if (signal.aborted) throw new Error("aborted");
      return { persist: async (tx) => void (await sql`insert into job_effects (job_id, note) values (${job.id}, ${kind})`.execute(tx)) };
    },
  });

await describeEachDatabase("a worker host's graceful stop", (t) => {
  beforeAll(async () => ensureEffectsTable(t().db));

  it("lets a handler finish within the drain, hands back one that would not, takes nothing new, and returns within the bound", async () => {
    const db = t().db;
    const e = await seedExecution(db, clock);
    const th = await startTestHost(t(), [working("test.drain.quick", 600), working("test.drain.slow", 30_000)], { concurrency: { ingest: 4 } });
    try {
      const quick = await enqueueFor(db, clock, e, { kind: "test.drain.quick", pool: "ingest" });
      const slow = await enqueueFor(db, clock, e, { kind: "test.drain.slow", pool: "ingest" });
      // Both handlers running (a row marked running in the database may still be on its way to the
      // runner: one that arrives after the stop began is handed back at once, not drained).
      await waitFor(async () => started.has(quick.id) && started.has(slow.id), 15_000);

      const DRAIN_MS = 2_000;
      const t0 = Date.now();
      const stopping = th.host.stop({ drainMs: DRAIN_MS });
      const late = await enqueueFor(db, clock, e, { kind: "test.drain.quick", pool: "ingest" }); // arrives during the drain
      await stopping;
      const took = Date.now() - t0;

      expect(took).toBeLessThan(DRAIN_MS + 1_500);
      expect(took).toBeGreaterThanOrEqual(DRAIN_MS - 50); // the slow handler had the whole drain
      expect((await jobRow(db, quick.id)).status).toBe("succeeded");
      expect(await effectsOf(db, quick.id)).toEqual([{ session_id: null, note: "test.drain.quick" }]);
      expect(await jobRow(db, slow.id)).toMatchObject({ status: "queued", lease_owner: null });
      expect(await effectsOf(db, slow.id)).toEqual([]);
      expect((await jobRow(db, late.id)).status).toBe("queued");
    } finally {
      await th.stop();
    }
  });
});

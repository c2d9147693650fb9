/**
 * The cleanup pool's one kind (WRK-6): a system job, started every minute by
 * the persisted system schedule `system:cleanup.sweep`. It expires bindings
 * into tombstones, drives the registered session cleaners in bounded batches,
 * and marks `cleanup_done_at` — inside the runner's lease-fenced persist
 * transaction — only for sessions every cleaner finished.
 */
import { z } from "zod";
import { CLEANUP_EVERY_MS, CLEANUP_KIND } from "../../core/jobs/cleanup";
import type { SessionCleaners } from "../../core/retention/cleaners";
import { markCleanupDone, sweepSessions, type SweepOptions } from "../../core/retention/cleanup";
import { defineHandler, type JobHandler } from "../handler";

export function cleanupHandler(cleaners: SessionCleaners, opts: SweepOptions & { everyMs?: number } = {}): JobHandler<Record<string, never>> {
  return defineHandler({
    kind: CLEANUP_KIND,
    pool: "cleanup",
    restartable: true,
    maxAttempts: 1,
    system: true,
    everyMs: opts.everyMs ?? CLEANUP_EVERY_MS,
    params: z.strictObject({}),
    async run({ db, clock, logger, signal }) {
      const r = await sweepSessions(db, clock, cleaners, logger, { ...opts, signal });
      return {
        result: { expired: r.expired, visited: r.visited, done: r.done.length, failures: r.failures.length },
        persist: async (tx) => void (await markCleanupDone(tx, r.done, clock.now())),
      };
    },
  });
}

/**
 * The cleanup pool's one kind (WRK-6): a system job, started every minute by
 * the persisted system schedule `system:cleanup.sweep`. It expires bindings
 * into tombstones, drives the registered session cleaners in bounded batches,
 * and marks `cleanup_done_at` — inside the runner's lease-fenced persist
 * transaction — only for sessions every cleaner finished. `tidy` (optional)
 * runs after it each time: bounded deletions of what no one can see, such as
 * the staged rows of an ingest that crashed or lost its lease and was never
 * retried (db/graph/postgres/generations.ts `sweepGenerations`).
 */
import { z } from "zod";
import { CLEANUP_EVERY_MS, CLEANUP_KIND } from "../../core/jobs/cleanup";
import { MEMORY_PURGE_BATCH } from "../../core/limits";
import type { IdentityStore } from "../../core/identity-store";
import type { SessionCleaners } from "../../core/retention/cleaners";
import { markCleanupDone, sweepSessions, type SweepOptions } from "../../core/retention/cleanup";
import { defineHandler, type JobHandler } from "../handler";

/** `identity`: the store whose bindings the sweep expires (main/ wires it over the same database). */
export function cleanupHandler(
  cleaners: SessionCleaners,
  identity: IdentityStore,
  opts: SweepOptions & { everyMs?: number; tidy?: (limit: number) => Promise<unknown> } = {},
): JobHandler<Record<string, never>> {
  return defineHandler({
    kind: CLEANUP_KIND,
    pool: "cleanup",
    restartable: true,
    maxAttempts: 1,
    system: true,
    everyMs: opts.everyMs ?? CLEANUP_EVERY_MS,
    params: z.strictObject({}),
    async run({ db, clock, logger, signal }) {
      const r = await sweepSessions(db, identity, clock, cleaners, logger, { ...opts, signal });
      if (opts.tidy && !signal.aborted) {
        await opts.tidy(opts.limit ?? MEMORY_PURGE_BATCH).catch((err: unknown) => logger.warn({ code: "cleanup_failed", cleaner: "tidy", err: (err as Error).message }, "tidying failed; retried next sweep"));
      }
      return {
        result: { expired: r.expired, visited: r.visited, done: r.done.length, failures: r.failures.length },
        persist: async (tx) => void (await markCleanupDone(tx, r.done, clock.now())),
      };
    },
  });
}

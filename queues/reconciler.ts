/**
 * The reconciler (JOB-4, JOB-8): one pass reclaims expired leases (the
 * sweeper) and re-dispatches queued rows that no dispatcher has been told
 * about for `staleMs`. Liveness is proven from the rows, not from the broker:
 * a row still `queued` and unclaimed after the bound gets a message that will
 * be delivered (`Dispatcher.redispatch` replaces a failed or completed BullMQ
 * message instead of letting its id swallow the add). So a Redis FLUSHALL, a
 * crash between commit and dispatch, a dropped NOTIFY, a message BullMQ failed
 * (stalled too often, a claim error) delays a job by at most one pass plus
 * `staleMs`, and loses none. Safe to run in every process: both statements
 * use `skip locked`.
 */
import type { Db } from "../db/schema";
import type { RedispatchResult } from "./dispatch/dispatcher";
import type { Dispatcher } from "./dispatch/dispatcher";
import type { JobMetrics } from "./metrics";
import { reclaimExpiredLeases, type Reclaimed } from "./sql/reclaimExpiredLeases";
import { takeUndispatched } from "./sql/takeUndispatched";

export interface ReconcileResult {
  reclaimed: Reclaimed[];
  /** Rows handed to the dispatcher again (reclaimed ones back in `queued`, and stale ones). */
  redispatched: number;
  /** Per result: messages added, found live, or replaced. */
  results: Record<RedispatchResult, number>;
}

export async function reconcileOnce(
  db: Db,
  dispatcher: Dispatcher,
  now: Date,
  o: { staleMs: number; limit?: number; metrics?: JobMetrics },
): Promise<ReconcileResult> {
  const reclaimed = await reclaimExpiredLeases(db, { now, limit: o.limit ?? 500 });
  for (const r of reclaimed) o.metrics?.reclaimed(r.pool, r.kind, r.status);
  const queued = reclaimed.filter((r) => r.status === "queued");
  const stale = await takeUndispatched(db, { now, staleMs: o.staleMs, limit: o.limit ?? 1000 });
  const items = [...queued, ...stale];
  const results: Record<RedispatchResult, number> = { added: 0, live: 0, replaced: 0 };
  if (items.length > 0) {
    const out = await dispatcher.redispatch(items, now);
    out.forEach((r, k) => {
      results[r]++;
      o.metrics?.redispatched(items[k]!.pool, k < queued.length ? "reclaimed" : "stale", r);
    });
  }
  return { reclaimed, redispatched: items.length, results };
}

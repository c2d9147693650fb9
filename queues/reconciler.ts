/**
 * The reconciler (JOB-4, JOB-8): one pass reclaims expired leases (the
 * sweeper) and re-dispatches queued rows that no dispatcher has been told
 * about recently. Because the rows are the truth, a Redis FLUSHALL, a crash
 * between commit and dispatch, or a dropped NOTIFY delays a job by at most
 * one pass plus `staleMs`, and loses none. Safe to run in every process:
 * both statements use `skip locked`.
 */
import type { Db } from "../db/schema";
import type { Dispatcher } from "./dispatch/dispatcher";
import type { JobMetrics } from "./metrics";
import { reclaimExpiredLeases, type Reclaimed } from "./sql/reclaimExpiredLeases";
import { takeUndispatched } from "./sql/takeUndispatched";

export interface ReconcileResult {
  reclaimed: Reclaimed[];
  redispatched: number;
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
  if (items.length > 0) await dispatcher.dispatch(items, now);
  return { reclaimed, redispatched: items.length };
}

/**
 * One cleanup sweep (WRK-6), run by the cleanup pool every minute:
 *   1. expire due bindings into tombstones (expireDueBindings);
 *   2. for tombstoned bindings whose cleanup is not done (oldest first, at most
 *      `sessions` of them), call every cleaner a bounded number of batches;
 *   3. report which sessions every cleaner finished, so the caller can mark
 *      `cleanup_done_at` (inside its lease-fenced persist transaction).
 * A cleaner that throws or is not done leaves the session pending: the next
 * minute retries it. Nothing here ever clears a tombstone.
 */
import type { Clock } from "../clock";
import type { Logger } from "../log";
import { MEMORY_PURGE_BATCH } from "../limits";
import { expireDueBindings } from "../registry/registry";
import type { IdentityStore } from "../identity-store";
import type { Db, Tx } from "../../db/schema";
import type { CleanupTarget, SessionCleaners } from "./cleaners";
import { recordErasurePass, type StorePass } from "./receipts";

export interface SweepOptions {
  /** Sessions visited per sweep. */
  sessions?: number;
  /** Batches per cleaner per session per sweep. */
  batchesPerSession?: number;
  /** Items per batch. */
  limit?: number;
  signal?: AbortSignal;
}

export interface SweepResult {
  expired: number;
  visited: number;
  done: CleanupTarget[];
  failures: Array<{ cleaner: string }>;
}

export async function pendingCleanups(db: Db, limit: number): Promise<CleanupTarget[]> {
  const rows = await db
    .selectFrom("session_bindings")
    .select(["org_id", "session_id"])
    .where("tombstoned_at", "is not", null)
    .where("cleanup_done_at", "is", null)
    .orderBy("tombstoned_at")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ tenant_id: r.org_id, session_id: r.session_id }));
}

/** Marks cleanup done; only for tombstoned bindings (so it can never touch a live one). */
export async function markCleanupDone(tx: Tx, targets: readonly CleanupTarget[], now: Date): Promise<number> {
  if (targets.length === 0) return 0;
  const r = await tx
    .updateTable("session_bindings")
    .set({ cleanup_done_at: now })
    .where("session_id", "in", targets.map((t) => t.session_id))
    .where("tombstoned_at", "is not", null)
    .where("cleanup_done_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function sweepSessions(
  db: Db,
  identity: IdentityStore,
  clock: Clock,
  cleaners: SessionCleaners,
  logger: Logger,
  o: SweepOptions = {},
): Promise<SweepResult> {
  const limit = o.limit ?? MEMORY_PURGE_BATCH;
  const expired = await expireDueBindings(identity, clock);
  const failures: Array<{ cleaner: string }> = [];
  for (const c of cleaners.list()) {
    if (!c.purgeExpired) continue;
    try {
      await c.purgeExpired(clock.now(), { limit });
    } catch (err) {
      failures.push({ cleaner: c.name });
      logger.warn({ code: "cleanup_failed", cleaner: c.name, err: (err as Error).message }, "expired-data cleanup failed; retried next sweep");
    }
  }
  const targets = await pendingCleanups(db, o.sessions ?? 100);
  const done: CleanupTarget[] = [];
  for (const target of targets) {
    if (o.signal?.aborted) break;
    if (await cleanSession(cleaners, target, logger, { limit, batches: o.batchesPerSession ?? 4, failures, record: { db, now: clock.now() } })) done.push(target);
  }
  return { expired, visited: targets.length, done, failures };
}

/**
 * Runs every cleaner on one tombstoned session, a bounded number of batches
 * each. True when every cleaner reports done. Failures are logged (never with
 * the session ID) and collected; they never restore access. With `record`, the pass's counts
 * per cleaner go into the session's erasure receipt (receipts.ts); a failure to record is logged
 * and retried with the next pass (the counts of this pass are then missing from it).
 */
export async function cleanSession(
  cleaners: SessionCleaners,
  target: CleanupTarget,
  logger: Logger,
  o: { limit: number; batches: number; failures?: Array<{ cleaner: string }>; record?: { db: Db; now: Date } },
): Promise<boolean> {
  let all = true;
  const pass: StorePass[] = [];
  for (const c of cleaners.list()) {
    let finished = false;
    let removed = 0;
    try {
      for (let i = 0; i < o.batches && !finished; i++) {
        const r = await c.purgeSession(target, { limit: o.limit });
        finished = r.done;
        removed += r.removed ?? 0;
      }
    } catch (err) {
      o.failures?.push({ cleaner: c.name });
      logger.warn({ code: "cleanup_failed", cleaner: c.name, err: (err as Error).message }, "session cleanup failed; retried next sweep");
    }
    pass.push({ store: c.name, removed, status: finished ? "done" : "pending" });
    all &&= finished;
  }
  if (o.record) {
    try {
      await recordErasurePass(o.record.db, target, pass, o.record.now);
    } catch (err) {
      logger.warn({ code: "erasure_receipt_failed", err: (err as Error).message }, "recording the erasure receipt failed; the next pass records again");
    }
  }
  return all;
}

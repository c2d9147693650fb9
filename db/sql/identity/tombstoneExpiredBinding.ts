/** tombstoneExpiredBinding: tombstones, as expired, a live binding past its deadline at `now`; false when it was not one. */
import type { Db } from "../../schema";

export async function tombstoneExpiredBinding(db: Db, sessionId: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("session_bindings")
    .set({ tombstoned_at: now, tombstone_reason: "expired" })
    .where("session_id", "=", sessionId)
    .where("tombstoned_at", "is", null)
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

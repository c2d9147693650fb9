/** pendingCleanups: tombstoned bindings whose cleanup is not done, oldest tombstone first, at most `limit`. */
import type { CleanupTarget } from "../../../core/retention/cleaners";
import type { Db } from "../../schema";

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

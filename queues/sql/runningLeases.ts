/** runningLeases: running jobs with their lease owner and deadline (operators' view; no session ids). */
import type { Db } from "../../db/schema";

export async function runningLeases(db: Db, limit = 100) {
  return db
    .selectFrom("jobs")
    .select(["id", "kind", "pool", "tenant_id", "attempts", "max_attempts", "lease_owner", "lease_expires_at", "started_at", "cancel_requested_at", "progress_done", "progress_total"])
    .where("status", "=", "running")
    .orderBy("lease_expires_at")
    .limit(limit)
    .execute();
}

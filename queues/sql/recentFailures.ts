/** recentFailures: failed, refused and abandoned jobs with their codes, newest first (operators' view). */
import type { Db } from "../../db/schema";

export async function recentFailures(db: Db, limit = 100) {
  return db
    .selectFrom("jobs")
    .select(["id", "kind", "pool", "tenant_id", "status", "error_code", "attempts", "max_attempts", "finished_at"])
    .where("status", "in", ["failed", "refused", "abandoned"])
    .orderBy("finished_at", "desc")
    .limit(limit)
    .execute();
}

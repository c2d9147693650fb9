/** listSchedules: every schedule, for the operators' page (no session ids). */
import type { Db } from "../../db/schema";

export async function listSchedules(db: Db, limit = 200) {
  return db
    .selectFrom("job_schedules")
    .select(["id", "kind", "system", "tenant_id", "interval_ms", "enabled", "next_run_at", "last_run_at", "last_job_id", "last_error_code"])
    .orderBy("id")
    .limit(limit)
    .execute();
}

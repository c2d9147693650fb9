/** findCancelRequested: which of these running jobs (held by this process) have a cancel request. */
import type { Db } from "../../db/schema";

export async function findCancelRequested(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("jobs")
    .select("id")
    .where("id", "in", [...ids])
    .where("cancel_requested_at", "is not", null)
    .execute();
  return rows.map((r) => r.id);
}

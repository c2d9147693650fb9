/** stillQueued: which of these rows are still waiting to be claimed and due (a BullMQ message's ids its claim missed). */
import type { Db } from "../../db/schema";

export async function stillQueued(db: Db, ids: readonly string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("jobs").select("id").where("id", "in", ids).where("status", "=", "queued").where("run_at", "<=", now).execute();
  return rows.map((r) => r.id);
}

/**
 * reportProgress: records how far a running job is (`done` of `total` units:
 * files for ingest), only while the stored lease token is still ours. Zero
 * rows = the lease was lost; the caller need not stop for that (its fenced
 * persist will refuse), so the answer is only returned.
 */
import type { Db } from "../../db/schema";

export async function reportProgress(db: Db, o: { id: string; token: string; done: number; total: number }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({ progress_done: Math.max(0, Math.floor(o.done)), progress_total: Math.max(0, Math.floor(o.total)) })
    .where("id", "=", o.id)
    .where("lease_token", "=", o.token)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

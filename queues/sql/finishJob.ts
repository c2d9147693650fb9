/**
 * finishJob: running → succeeded, fenced by the lease token. It runs first in
 * the persist transaction: it takes the row lock (no sweeper can reclaim the
 * row until commit) and, if the lease was lost, returns false so the caller
 * rolls back the handler's writes. A job with no writes of its own finishes
 * with this one statement alone.
 */
import type { Db, Tx } from "../../db/schema";

export async function finishJob(tx: Tx | Db, o: { id: string; token: string; now: Date; result: unknown }): Promise<boolean> {
  const r = await tx
    .updateTable("jobs")
    .set({
      status: "succeeded",
      result: o.result === undefined ? null : JSON.stringify(o.result),
      error_code: null,
      lease_owner: null,
      lease_token: null,
      lease_expires_at: null,
      finished_at: o.now,
      updated_at: o.now,
    })
    .where("id", "=", o.id)
    .where("lease_token", "=", o.token)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

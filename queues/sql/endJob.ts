/**
 * endJob: running → a terminal state without retry (`canceled`, `refused`,
 * `abandoned`, `failed`), fenced by the lease token. Used when a recheck
 * refuses (nothing else is written), on cancel, and for a non-restartable
 * job that cannot continue. Returns false if the lease was lost.
 */
import type { Db, Tx } from "../../db/schema";

export type EndStatus = "canceled" | "refused" | "abandoned" | "failed";

export async function endJob(db: Db | Tx, o: { id: string; token: string; now: Date; status: EndStatus; errorCode: string }): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({
      status: o.status,
      error_code: o.errorCode,
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

/** expireDueBindings: tombstones, as expired, up to `limit` live bindings past their deadline at `now`; those it ended. */
import type { Db } from "../../schema";

export async function expireDueBindings(db: Db, now: Date, limit: number): Promise<Array<{ session_id: string; org_id: string; user_id: string }>> {
  return db
    .updateTable("session_bindings")
    .set({ tombstoned_at: now, tombstone_reason: "expired" })
    .where("session_id", "in", (qb) =>
      qb.selectFrom("session_bindings").select("session_id").where("tombstoned_at", "is", null).where("expires_at", "<=", now).limit(limit),
    )
    .where("tombstoned_at", "is", null)
    .returning(["session_id", "org_id", "user_id"])
    .execute();
}

/** revokeBinding: tombstones, as revoked, a live binding; the row revoked, if it was live. */
import type { Db, SessionBinding } from "../../schema";

export async function revokeBinding(db: Db, sessionId: string, now: Date): Promise<SessionBinding | undefined> {
  return db
    .updateTable("session_bindings")
    .set({ tombstoned_at: now, tombstone_reason: "revoked" })
    .where("session_id", "=", sessionId)
    .where("tombstoned_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

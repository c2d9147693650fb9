/** revokeDashboardBindings: tombstones, as revoked, every live dashboard binding of a browser sign-in; those it ended. */
import type { Db } from "../../schema";

export async function revokeDashboardBindings(db: Db, loginSessionId: string, now: Date): Promise<Array<{ session_id: string; org_id: string }>> {
  return db
    .updateTable("session_bindings")
    .set({ tombstoned_at: now, tombstone_reason: "revoked" })
    .where("kind", "=", "dashboard")
    .where("login_session_id", "=", loginSessionId)
    .where("tombstoned_at", "is", null)
    .returning(["session_id", "org_id"])
    .execute();
}

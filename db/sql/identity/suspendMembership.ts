/** suspendMembership: sets the membership's suspension; false when there is no such membership. */
import type { Db } from "../../schema";

export async function suspendMembership(db: Db, orgId: string, userId: string, at: Date): Promise<boolean> {
  const r = await db.updateTable("memberships").set({ suspended_at: at }).where("org_id", "=", orgId).where("user_id", "=", userId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

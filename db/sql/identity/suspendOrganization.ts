/** suspendOrganization: sets the organisation's suspension; false when there is no such organisation. */
import type { Db } from "../../schema";

export async function suspendOrganization(db: Db, orgId: string, at: Date): Promise<boolean> {
  const r = await db.updateTable("organizations").set({ suspended_at: at }).where("id", "=", orgId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

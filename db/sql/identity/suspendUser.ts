/** suspendUser: sets the user's suspension; false when there is no such user. */
import type { Db } from "../../schema";

export async function suspendUser(db: Db, userId: string, at: Date): Promise<boolean> {
  const r = await db.updateTable("users").set({ suspended_at: at }).where("id", "=", userId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

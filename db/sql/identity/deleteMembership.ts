/** deleteMembership: removes the membership entirely (nothing when there is none). */
import type { Db } from "../../schema";

export async function deleteMembership(db: Db, orgId: string, userId: string): Promise<void> {
  await db.deleteFrom("memberships").where("org_id", "=", orgId).where("user_id", "=", userId).execute();
}

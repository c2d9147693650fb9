/** membershipRole: the user's role in the organisation, when a member. */
import type { Role } from "../../../core/identity-store";
import type { Db } from "../../schema";

export async function membershipRole(db: Db, orgId: string, userId: string): Promise<Role | undefined> {
  return (await db.selectFrom("memberships").select("role").where("org_id", "=", orgId).where("user_id", "=", userId).executeTakeFirst())?.role;
}

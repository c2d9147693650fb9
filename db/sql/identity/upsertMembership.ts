/** upsertMembership: adds the membership, or sets the role of the one there is (its suspension is kept). */
import type { Role } from "../../../core/identity-store";
import type { Db } from "../../schema";

export async function upsertMembership(db: Db, row: { orgId: string; userId: string; role: Role }): Promise<void> {
  await db
    .insertInto("memberships")
    .values({ org_id: row.orgId, user_id: row.userId, role: row.role, suspended_at: null })
    .onConflict((oc) => oc.columns(["org_id", "user_id"]).doUpdateSet({ role: row.role }))
    .execute();
}

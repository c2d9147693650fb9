/** lockOrganization: locks the organisation's row until the transaction ends; fails (NoResultError) when there is none. */
import type { Db } from "../../schema";

export async function lockOrganization(db: Db, orgId: string): Promise<void> {
  await db.selectFrom("organizations").select("id").where("id", "=", orgId).forUpdate().executeTakeFirstOrThrow();
}

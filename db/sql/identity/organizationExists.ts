/** organizationExists: whether an organisation has this id. */
import type { Db } from "../../schema";

export async function organizationExists(db: Db, orgId: string): Promise<boolean> {
  return (await db.selectFrom("organizations").select("id").where("id", "=", orgId).executeTakeFirst()) !== undefined;
}

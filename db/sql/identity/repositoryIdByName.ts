/** repositoryIdByName: the id of the organisation's repository with this name. */
import type { Db } from "../../schema";

export async function repositoryIdByName(db: Db, orgId: string, name: string): Promise<string | undefined> {
  return (await db.selectFrom("repositories").select("id").where("org_id", "=", orgId).where("name", "=", name).executeTakeFirst())?.id;
}

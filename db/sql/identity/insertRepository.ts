/** insertRepository: a new repository of an organisation. */
import type { Db } from "../../schema";

export async function insertRepository(db: Db, row: { id: string; orgId: string; name: string }): Promise<void> {
  await db.insertInto("repositories").values({ id: row.id, org_id: row.orgId, name: row.name }).execute();
}

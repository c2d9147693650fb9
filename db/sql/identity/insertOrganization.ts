/** insertOrganization: a new organisation, not suspended. */
import type { Db } from "../../schema";

export async function insertOrganization(db: Db, row: { id: string; name: string }): Promise<void> {
  await db.insertInto("organizations").values({ id: row.id, name: row.name, suspended_at: null }).execute();
}

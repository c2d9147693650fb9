/** revokeApiKey: revokes the live key with this prefix; false when none was live. */
import type { Db } from "../../schema";

export async function revokeApiKey(db: Db, prefix: string, at: Date): Promise<boolean> {
  const r = await db.updateTable("api_keys").set({ revoked_at: at }).where("prefix", "=", prefix).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

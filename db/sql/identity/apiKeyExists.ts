/** apiKeyExists: whether a key (live or revoked) has this prefix. */
import type { Db } from "../../schema";

export async function apiKeyExists(db: Db, prefix: string): Promise<boolean> {
  return (await db.selectFrom("api_keys").select("id").where("prefix", "=", prefix).executeTakeFirst()) !== undefined;
}

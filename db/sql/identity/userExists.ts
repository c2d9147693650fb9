/** userExists: whether a user has this id. */
import type { Db } from "../../schema";

export async function userExists(db: Db, userId: string): Promise<boolean> {
  return (await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst()) !== undefined;
}

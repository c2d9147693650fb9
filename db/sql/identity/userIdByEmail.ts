/** userIdByEmail: the id of the user with this (normalised) email. */
import type { Db } from "../../schema";

export async function userIdByEmail(db: Db, email: string): Promise<string | undefined> {
  return (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst())?.id;
}

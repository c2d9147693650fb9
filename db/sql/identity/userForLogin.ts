/** userForLogin: what sign-in checks of the user with this (normalised) email. */
import type { Db } from "../../schema";

export async function userForLogin(db: Db, email: string): Promise<{ id: string; password_hash: string | null; suspended_at: Date | null } | undefined> {
  return db.selectFrom("users").select(["id", "password_hash", "suspended_at"]).where("email", "=", email).executeTakeFirst();
}

/** insertUser: a new user, not suspended (its password hash is null for a user who signs in with keys only). */
import type { Db } from "../../schema";

export async function insertUser(db: Db, row: { id: string; email: string; passwordHash: string | null; platformAdmin: boolean }): Promise<void> {
  await db
    .insertInto("users")
    .values({ id: row.id, email: row.email, password_hash: row.passwordHash, is_platform_admin: row.platformAdmin, suspended_at: null })
    .execute();
}

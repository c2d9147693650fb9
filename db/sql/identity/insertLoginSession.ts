/** insertLoginSession: a new browser sign-in, stored as the SHA-256 of its token. */
import type { Db } from "../../schema";

export async function insertLoginSession(db: Db, row: { id: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db
    .insertInto("login_sessions")
    .values({ id: row.id, user_id: row.userId, token_hash: row.tokenHash, expires_at: row.expiresAt, revoked_at: null })
    .execute();
}

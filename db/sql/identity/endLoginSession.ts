/** endLoginSession: revokes the live sign-in with this token hash; the row it ended, if any. */
import type { Db } from "../../schema";

export async function endLoginSession(db: Db, tokenHash: string, at: Date): Promise<{ id: string; user_id: string } | undefined> {
  return db
    .updateTable("login_sessions")
    .set({ revoked_at: at })
    .where("token_hash", "=", tokenHash)
    .where("revoked_at", "is", null)
    .returning(["id", "user_id"])
    .executeTakeFirst();
}

/** findBinding: the binding row of a session ID, in any state. */
import type { Db, SessionBinding } from "../../schema";

export async function findBinding(db: Db, sessionId: string): Promise<SessionBinding | undefined> {
  return db.selectFrom("session_bindings").selectAll().where("session_id", "=", sessionId).executeTakeFirst();
}

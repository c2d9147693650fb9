/** sessionOwner: the organisation and user a session belongs to; undefined for an unknown session. */
import type { Db } from "../../schema";

export async function sessionOwner(db: Db, sessionId: string): Promise<{ org_id: string; user_id: string } | undefined> {
  return db.selectFrom("session_bindings").select(["org_id", "user_id"]).where("session_id", "=", sessionId).executeTakeFirst();
}

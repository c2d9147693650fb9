/**
 * insertBinding: a new binding, unless its session ID exists in any organisation (the primary key
 * makes the ID global; a racing insert does nothing). The row inserted, if it was.
 */
import type { Db, SessionBinding } from "../../schema";

export async function insertBinding(db: Db, row: SessionBinding): Promise<SessionBinding | undefined> {
  return db
    .insertInto("session_bindings")
    .values(row)
    .onConflict((oc) => oc.column("session_id").doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** deleteMcpSession: an ended session (client DELETE) goes; every node answers 404 from then on. */
import type { Db } from "../../schema";
import { key } from "./rows";

export async function deleteMcpSession(db: Db, sid: string): Promise<void> {
  await db.deleteFrom("mcp_sessions").where("id_hash", "=", key(sid)).execute();
}

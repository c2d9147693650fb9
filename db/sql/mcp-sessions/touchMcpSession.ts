/** touchMcpSession: renews a live session and reads it, in one statement; undefined when it ended or idled out. */
import type { McpSessionRecord } from "../../../core/mcp-sessions";
import type { Db } from "../../schema";
import { cutoff, key, ownerOf } from "./rows";

export async function touchMcpSession(db: Db, sid: string, now: Date): Promise<McpSessionRecord | undefined> {
  const row = await db
    .updateTable("mcp_sessions")
    .set({ last_seen_at: now })
    .where("id_hash", "=", key(sid))
    .where("last_seen_at", ">", cutoff(now))
    .returning(["init", "owner_org_id", "owner_user_id", "owner_session_id"])
    .executeTakeFirst();
  return row === undefined ? undefined : { init: row.init, owner: ownerOf(row) };
}

/**
 * bindMcpSession: binds an unbound session to `owner` — `set owner = coalesce(owner, new)` under the row
 * lock, so two nodes binding at once both read back the same winner. Answers the owner it has now, or
 * undefined when the session is gone.
 */
import { sql } from "kysely";
import type { McpOwner } from "../../../core/mcp-sessions";
import type { Db } from "../../schema";
import { key, ownerOf } from "./rows";

export async function bindMcpSession(db: Db, sid: string, owner: McpOwner): Promise<McpOwner | undefined> {
  const row = await db
    .updateTable("mcp_sessions")
    .set({
      owner_org_id: sql<string>`coalesce(owner_org_id, ${owner.orgId})`,
      owner_user_id: sql<string>`coalesce(owner_user_id, ${owner.userId})`,
      owner_session_id: sql<string>`coalesce(owner_session_id, ${owner.sessionId})`,
    })
    .where("id_hash", "=", key(sid))
    .returning(["owner_org_id", "owner_user_id", "owner_session_id"])
    .executeTakeFirst();
  return row === undefined ? undefined : ownerOf(row);
}

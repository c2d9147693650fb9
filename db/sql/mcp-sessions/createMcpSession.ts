/** createMcpSession: a new transport session's row, with the client's initialize params and its owner if already known. */
import type { McpOwner } from "../../../core/mcp-sessions";
import type { Db } from "../../schema";
import { key } from "./rows";

export async function createMcpSession(db: Db, sid: string, init: unknown, owner: McpOwner | undefined, now: Date): Promise<void> {
  await db
    .insertInto("mcp_sessions")
    .values({
      id_hash: key(sid),
      init: JSON.stringify(init),
      owner_org_id: owner?.orgId ?? null,
      owner_user_id: owner?.userId ?? null,
      owner_session_id: owner?.sessionId ?? null,
      created_at: now,
      last_seen_at: now,
    })
    .execute();
}

/**
 * How an MCP session is kept (core/mcp-sessions.ts): keyed by the hex SHA-256 of its handle (the handle
 * itself is never stored), live while seen within MCP_IDLE_TIMEOUT_MS, its owner three nullable columns.
 */
import { sha256Hex } from "../../../core/crypto";
import { MCP_IDLE_TIMEOUT_MS } from "../../../core/limits";
import type { McpOwner } from "../../../core/mcp-sessions";

export const key = (sid: string): string => sha256Hex(sid);
export const cutoff = (now: Date): Date => new Date(now.getTime() - MCP_IDLE_TIMEOUT_MS);

export function ownerOf(row: { owner_org_id: string | null; owner_user_id: string | null; owner_session_id: string | null }): McpOwner | undefined {
  if (row.owner_org_id === null || row.owner_user_id === null || row.owner_session_id === null) return undefined;
  return { orgId: row.owner_org_id, userId: row.owner_user_id, sessionId: row.owner_session_id };
}

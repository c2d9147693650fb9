/**
 * Durable MCP Streamable HTTP sessions (MCP-2), so any API node serves any session.
 *
 * One row per transport session in `mcp_sessions`, keyed by the hex SHA-256 of its
 * `Mcp-Session-Id` (the handle itself is never stored, logged or returned):
 *   - `init`: the client's `initialize` params, replayed by a node that has not seen the
 *     session to rebuild an SDK transport and server for it (api/mcp/http.ts);
 *   - the owner (organisation, user, primary session): NULL until the first resolution,
 *     then set once by `bind` and never changed — the one statement
 *     `set owner = coalesce(owner, new)` runs under the row lock, so two nodes binding at
 *     once both read back the same winner and the loser is refused;
 *   - `last_seen_at`: renewed by every request (`touch`); a session idle past
 *     MCP_IDLE_TIMEOUT_MS is gone on every node, and `sweep` deletes such rows in batches.
 * An ended session (client DELETE) is deleted: every node answers 404 from then on.
 * The store is db/sql/mcp-sessions/ (one verb per file), handed to the API as `stores.mcpSessions`.
 */
export interface McpOwner {
  readonly orgId: string;
  readonly userId: string;
  readonly sessionId: string;
}

export interface McpSessionRecord {
  /** The client's initialize params, as sent. */
  readonly init: unknown;
  readonly owner: McpOwner | undefined;
}

export interface McpSessionStore {
  create(sid: string, init: unknown, owner: McpOwner | undefined, now: Date): Promise<void>;
  /** Renews a live session and reads it; undefined when it ended or idled out. */
  touch(sid: string, now: Date): Promise<McpSessionRecord | undefined>;
  /** Binds an unbound session to `owner`; returns the owner it has now (the first binder's), or undefined when it is gone. */
  bind(sid: string, owner: McpOwner): Promise<McpOwner | undefined>;
  remove(sid: string): Promise<void>;
  /** Which of these sessions still exist and are not idle. */
  live(sids: readonly string[], now: Date): Promise<Set<string>>;
  /** Deletes up to `limit` sessions idle past the timeout; returns how many. */
  sweep(now: Date, limit: number): Promise<number>;
}

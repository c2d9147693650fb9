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
 */
import { sql } from "kysely";
import { sha256Hex } from "../../core/crypto";
import { MCP_IDLE_TIMEOUT_MS } from "../../core/limits";
import type { Db } from "../../db/schema";

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

const key = (sid: string): string => sha256Hex(sid);
const cutoff = (now: Date): Date => new Date(now.getTime() - MCP_IDLE_TIMEOUT_MS);

function ownerOf(row: { owner_org_id: string | null; owner_user_id: string | null; owner_session_id: string | null }): McpOwner | undefined {
  if (row.owner_org_id === null || row.owner_user_id === null || row.owner_session_id === null) return undefined;
  return { orgId: row.owner_org_id, userId: row.owner_user_id, sessionId: row.owner_session_id };
}

export function postgresMcpSessionStore(db: Db): McpSessionStore {
  return {
    async create(sid, init, owner, now) {
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
    },

    async touch(sid, now) {
      const row = await db
        .updateTable("mcp_sessions")
        .set({ last_seen_at: now })
        .where("id_hash", "=", key(sid))
        .where("last_seen_at", ">", cutoff(now))
        .returning(["init", "owner_org_id", "owner_user_id", "owner_session_id"])
        .executeTakeFirst();
      return row === undefined ? undefined : { init: row.init, owner: ownerOf(row) };
    },

    async bind(sid, owner) {
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
    },

    async remove(sid) {
      await db.deleteFrom("mcp_sessions").where("id_hash", "=", key(sid)).execute();
    },

    async live(sids, now) {
      if (sids.length === 0) return new Set();
      const byKey = new Map(sids.map((s) => [key(s), s]));
      const rows = await db
        .selectFrom("mcp_sessions")
        .select("id_hash")
        .where("id_hash", "in", [...byKey.keys()])
        .where("last_seen_at", ">", cutoff(now))
        .execute();
      return new Set(rows.map((r) => byKey.get(r.id_hash)!));
    },

    async sweep(now, limit) {
      const victims = db.selectFrom("mcp_sessions").select("id_hash").where("last_seen_at", "<=", cutoff(now)).limit(limit);
      const res = await db.deleteFrom("mcp_sessions").where("id_hash", "in", victims).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

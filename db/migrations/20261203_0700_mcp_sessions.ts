import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// MCP Streamable HTTP sessions, durable so any API node serves any session (MCP-2). See docs/mcp.md.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mcp_sessions")
    // Hex SHA-256 of the Mcp-Session-Id: the handle itself is never stored.
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    // The client's initialize params (protocol version, capabilities, client info): replayed to rebuild the session on another node.
    .addColumn("init", "jsonb", (c) => c.notNull())
    // The owner, set once by the first resolution and never changed (all three or none).
    .addColumn("owner_org_id", "text", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("owner_user_id", "text")
    .addColumn("owner_session_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addCheckConstraint(
      "mcp_sessions_owner_whole",
      sql`(owner_org_id is null and owner_user_id is null and owner_session_id is null) or (owner_org_id is not null and owner_user_id is not null and owner_session_id is not null)`,
    )
    .execute();
  await db.schema.createIndex("mcp_sessions_last_seen_idx").on("mcp_sessions").column("last_seen_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mcp_sessions").execute();
}

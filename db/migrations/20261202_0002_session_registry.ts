import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per primary session ID, ever: tombstoned rows are never deleted (REG-5, REG-6).
  await db.schema
    .createTable("session_bindings")
    .addColumn("session_id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('runtime', 'dashboard')`))
    .addColumn("login_session_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("tombstoned_at", "timestamptz")
    .addColumn("tombstone_reason", "text", (c) => c.check(sql`tombstone_reason in ('revoked', 'expired')`))
    .addColumn("cleanup_done_at", "timestamptz")
    .execute();
  await db.schema.createIndex("session_bindings_org_idx").on("session_bindings").columns(["org_id", "expires_at"]).execute();
  await db.schema
    .createIndex("session_bindings_live_idx")
    .on("session_bindings")
    .column("expires_at")
    .where(sql.ref("tombstoned_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("session_bindings_cleanup_idx")
    .on("session_bindings")
    .column("tombstoned_at")
    .where(sql.ref("cleanup_done_at"), "is", null)
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .addColumn("org_id", "text")
    .addColumn("actor_user_id", "text")
    .addColumn("actor_key_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("session_target", "text")
    .addColumn("details", "jsonb")
    .execute();
  await db.schema.createIndex("audit_log_org_at_idx").on("audit_log").columns(["org_id", "at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await db.schema.dropTable("session_bindings").execute();
}

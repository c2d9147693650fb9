import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Uploaded snapshot archives for ingest (WRK-2). See docs/job-kinds.md.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ingest_uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The uploading execution identity: only that session may ingest it.
    .addColumn("tenant_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("repo_id", "text", (c) => c.notNull().references("repositories.id").onDelete("cascade"))
    .addColumn("format", "text", (c) => c.notNull().check(sql`format in ('tar', 'tar.gz', 'zip')`))
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("content", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ingest_uploads_session_idx").on("ingest_uploads").columns(["tenant_id", "session_id"]).execute();
  await db.schema.createIndex("ingest_uploads_expiry_idx").on("ingest_uploads").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ingest_uploads").execute();
}

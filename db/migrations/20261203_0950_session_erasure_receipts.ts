import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// The recorded erasure receipt of a revoked or expired session (docs/memory.md, "Erasure"):
// what the cleanup sweep removed from each store, and whether each store is done. One row per
// session, written by every cleanup pass (the revocation's first pass and the sweep's retries).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("session_erasure_receipts")
    .addColumn("tenant_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("session_id", "text", (c) => c.notNull())
    // [{store, removed, status: "done" | "pending"}], in cleaner order; `removed` adds up over passes.
    .addColumn("stores", "jsonb", (c) => c.notNull())
    .addColumn("done", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("passes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addColumn("done_at", "timestamptz")
    .addPrimaryKeyConstraint("session_erasure_receipts_pkey", ["tenant_id", "session_id"])
    .execute();
  await sql`create index session_erasure_receipts_pending_idx on session_erasure_receipts (updated_at) where not done`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("session_erasure_receipts").execute();
}

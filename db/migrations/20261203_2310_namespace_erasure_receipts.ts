import type { Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// The recorded erasure receipt of a cleared session-memory namespace (docs/memory.md, "Erasure"):
// what clearing (tenant, session, repository) removed from each store, kept for its owner to read
// later. One row per namespace; a repeated clear adds its counts (a store once done stays done).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("namespace_erasure_receipts")
    .addColumn("tenant_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("repo_id", "text", (c) => c.notNull())
    // [{store, entities, facts, history, rows?, status}], as the clear answered them, summed over clears.
    .addColumn("stores", "jsonb", (c) => c.notNull())
    .addColumn("done", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("clears", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("namespace_erasure_receipts_pkey", ["tenant_id", "session_id", "repo_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("namespace_erasure_receipts").execute();
}

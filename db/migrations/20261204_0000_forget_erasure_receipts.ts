import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// The recorded erasure receipt of a forget-session on repository memory (docs/memory.md, "Pending
// erasure is retried"): what forgetting session S's durable writes to repository R removed from
// each store, and — while other sessions' AI/fix jobs that may quote a forgotten fact were still
// running — the forgotten fact IDs and the forget's time, so the cleanup sweep can finish the
// cascade once those jobs end. One row per (tenant, session, repository); a repeated forget adds
// its counts (a store once done stays done) and its fact IDs.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("forget_erasure_receipts")
    .addColumn("tenant_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("repo_id", "text", (c) => c.notNull())
    // [{store, entities, facts, history, rows?, status}], as the forget answered them, summed over forgets and retries.
    .addColumn("stores", "jsonb", (c) => c.notNull())
    // Forgotten fact IDs still to look for in other sessions' results (emptied once that store is done).
    .addColumn("fact_ids", "jsonb", (c) => c.notNull().defaultTo("[]"))
    .addColumn("done", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("forgets", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("forgotten_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("forget_erasure_receipts_pkey", ["tenant_id", "session_id", "repo_id"])
    .execute();
  // The sweep's scan: receipts not done, least recently retried first.
  await db.schema.createIndex("forget_erasure_receipts_pending").on("forget_erasure_receipts").columns(["updated_at"]).where(sql.ref("done"), "=", false).execute();
  await db.schema.createIndex("namespace_erasure_receipts_pending").on("namespace_erasure_receipts").columns(["updated_at"]).where(sql.ref("done"), "=", false).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("namespace_erasure_receipts_pending").execute();
  await db.schema.dropTable("forget_erasure_receipts").execute();
}

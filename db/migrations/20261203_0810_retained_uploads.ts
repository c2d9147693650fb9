import type { Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// An ingested upload is kept as its repository's last snapshot (one per repository) until its
// expiry, so that a fix job can work on it; it can no longer be ingested again. See docs/job-kinds.md.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("ingest_uploads").addColumn("ingested_at", "timestamptz").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("ingest_uploads").dropColumn("ingested_at").execute();
}

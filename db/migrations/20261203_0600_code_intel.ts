import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Code intelligence (issue 16): job progress, the per-file parse cache of
// incremental ingest, compact (float4) vectors. See docs/job-kinds.md and docs/memory.md.
export async function up(db: Kysely<any>): Promise<void> {
  // Progress of a running job (files done of total for ingest); null where a kind reports none.
  await db.schema.alterTable("jobs").addColumn("progress_done", "integer").execute();
  await db.schema.alterTable("jobs").addColumn("progress_total", "integer").execute();

  // One row per parsed file of a repository's last ingest: the content hash it was parsed from,
  // the parser that parsed it, and what it found. An unchanged file is not parsed again.
  await db.schema
    .createTable("repo_ingest_files")
    .addColumn("repo_id", "text", (c) => c.notNull().references("repositories.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("parser", "text", (c) => c.notNull())
    .addColumn("parsed", "jsonb")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("repo_ingest_files_pk", ["repo_id", "path"])
    .execute();

  // Vectors as float4 arrays: half the bytes of double precision, the precision embeddings have.
  await sql`alter table session_memory_vectors alter column vector type real[]`.execute(db);
  await sql`alter table repo_nodes alter column embedding type real[]`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table repo_nodes alter column embedding type double precision[]`.execute(db);
  await sql`alter table session_memory_vectors alter column vector type double precision[]`.execute(db);
  await db.schema.dropTable("repo_ingest_files").execute();
  await db.schema.alterTable("jobs").dropColumn("progress_total").execute();
  await db.schema.alterTable("jobs").dropColumn("progress_done").execute();
}

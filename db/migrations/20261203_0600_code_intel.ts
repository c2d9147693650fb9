import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Code intelligence: job progress, the per-file parse cache of
// incremental ingest, compact (float4) vectors. `down` drops session vectors (a reindex restores them). See docs/job-kinds.md and docs/memory.md.
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

  // Session vectors as bytea: float4 big-endian (float4send's order), 4 bytes a dimension, read
  // as one buffer and scored in process (db/vector/local-postgres.ts) — no per-element text.
  await sql`alter table session_memory_vectors add column vec bytea`.execute(db);
  await sql`update session_memory_vectors v set vec = coalesce((select string_agg(float4send(x::real), ''::bytea order by i)
    from unnest(v.vector) with ordinality as t(x, i)), ''::bytea)`.execute(db);
  await sql`alter table session_memory_vectors drop column vector`.execute(db);
  await sql`alter table session_memory_vectors rename column vec to vector`.execute(db);
  await sql`alter table session_memory_vectors alter column vector set not null`.execute(db);
  // Repository embeddings as float4 arrays (half of double precision; what embeddings carry),
  // scored in SQL: pgvector's distance where the server has it, exact arithmetic otherwise.
  await sql`alter table repo_nodes alter column embedding type real[]`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table repo_nodes alter column embedding type double precision[]`.execute(db);
  await sql`delete from session_memory_vectors`.execute(db);
  await sql`alter table session_memory_vectors alter column vector type double precision[] using '{}'::double precision[]`.execute(db);
  await db.schema.dropTable("repo_ingest_files").execute();
  await db.schema.alterTable("jobs").dropColumn("progress_total").execute();
  await db.schema.alterTable("jobs").dropColumn("progress_done").execute();
}

import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Staged ingest writes (docs/architecture.md, "Where an ingest's time goes"): an ingest writes the
// rows its graph adds in short transactions of their own, tagged with a generation that readers do
// not see, and makes them visible at its fenced finish by marking the generation published — one
// row, whatever the size of the graph. `gen` null = a plain visible row (every row written before
// this migration, every memory write). One open generation per repository at a time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("repo_graph_gens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("repo_id", "text", (c) => c.notNull())
    // The job and lease token that stage into it: a stage step writes only while that token holds the job row.
    .addColumn("job_id", "text", (c) => c.notNull())
    .addColumn("lease_token", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    // Set by the fenced finish; from then on its rows are visible, and compaction clears their tag.
    .addColumn("published_at", "timestamptz")
    .execute();
  await sql`create unique index repo_graph_gens_repo_idx on repo_graph_gens (repo_id)`.execute(db);
  for (const t of ["repo_nodes", "repo_edges", "repo_ingest_files"]) {
    await sql`alter table ${sql.table(t)} add column gen text`.execute(db);
    await sql`create index ${sql.id(`${t}_gen_idx`)} on ${sql.table(t)} (gen) where gen is not null`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["repo_nodes", "repo_edges", "repo_ingest_files"]) await sql`alter table ${sql.table(t)} drop column gen`.execute(db);
  await db.schema.dropTable("repo_graph_gens").execute();
}

import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Follow-up jobs (docs/jobs.md "Follow-up jobs"): a job a handler started from its own persist
// (ingest → embedding → the next embedding batch …) names the job that began the chain, so that
// job's view lists what followed from it. Null for a job a client or a schedule submitted.
// No foreign key: the retention sweep deletes old rows in any order.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("origin_job_id", "text").execute();
  // A job view's follow-ups, newest first: one index range per job read.
  await db.schema
    .createIndex("jobs_origin_job")
    .on("jobs")
    .columns(["origin_job_id", "created_at"])
    .where(sql.ref("origin_job_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("jobs_origin_job").execute();
  await db.schema.alterTable("jobs").dropColumn("origin_job_id").execute();
}

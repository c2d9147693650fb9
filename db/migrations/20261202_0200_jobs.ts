import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Durable job rows (JOB-1) and persisted schedules (JOB-7). See docs/jobs.md.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("pool", "text", (c) => c.notNull())
    .addColumn("params", "jsonb", (c) => c.notNull())
    .addColumn("repo_id", "text")
    // System jobs (the cleanup sweep) carry no identity; every other job carries all of it.
    .addColumn("system", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("tenant_id", "text")
    .addColumn("subject_id", "text")
    .addColumn("session_id", "text")
    .addColumn("parent_session_id", "text")
    // Who started it: ids only, never a token, cookie or secret.
    .addColumn("actor_user_id", "text")
    .addColumn("api_key_id", "text")
    .addColumn("login_session_id", "text")
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('queued', 'running', 'succeeded', 'failed', 'canceled', 'abandoned', 'refused')`),
    )
    .addColumn("restartable", "boolean", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_at", "timestamptz", (c) => c.notNull())
    .addColumn("dispatched_at", "timestamptz")
    .addColumn("lease_owner", "text")
    .addColumn("lease_token", "text")
    .addColumn("lease_expires_at", "timestamptz")
    .addColumn("cancel_requested_at", "timestamptz")
    .addColumn("result", "jsonb")
    .addColumn("error_code", "text")
    .addColumn("schedule_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .addCheckConstraint(
      "jobs_identity_ck",
      sql`(system and tenant_id is null and session_id is null) or (not system and tenant_id is not null and subject_id is not null
        and session_id is not null and parent_session_id = session_id and actor_user_id is not null)`,
    )
    .addCheckConstraint("jobs_lease_ck", sql`(status = 'running') = (lease_token is not null)`)
    .execute();
  // The claim's scan: queued rows of one pool in run_at order.
  await db.schema.createIndex("jobs_queued_idx").on("jobs").columns(["pool", "run_at"]).where(sql.ref("status"), "=", "queued").execute();
  // The sweeper's scan: running rows by lease deadline.
  await db.schema.createIndex("jobs_running_idx").on("jobs").column("lease_expires_at").where(sql.ref("status"), "=", "running").execute();
  // An execution identity's own jobs, newest first (HTTP-5).
  await db.schema.createIndex("jobs_session_idx").on("jobs").columns(["tenant_id", "session_id", "created_at"]).execute();
  // At most one live job per schedule.
  await sql`create unique index jobs_schedule_live_idx on jobs (schedule_id) where schedule_id is not null and status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable("job_schedules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("params", "jsonb", (c) => c.notNull())
    .addColumn("repo_id", "text")
    .addColumn("interval_ms", "integer", (c) => c.notNull().check(sql`interval_ms >= 1000`))
    .addColumn("system", "boolean", (c) => c.notNull().defaultTo(false))
    // Nullable on purpose: a legacy row without an identity must be representable, and fails closed.
    .addColumn("tenant_id", "text")
    .addColumn("subject_id", "text")
    .addColumn("session_id", "text")
    .addColumn("parent_session_id", "text")
    .addColumn("actor_user_id", "text")
    .addColumn("api_key_id", "text")
    .addColumn("login_session_id", "text")
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("next_run_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_run_at", "timestamptz")
    .addColumn("last_job_id", "text")
    .addColumn("last_error_code", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("job_schedules_due_idx").on("job_schedules").column("next_run_at").where(sql.ref("enabled"), "=", true).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_schedules").execute();
  await db.schema.dropTable("jobs").execute();
}

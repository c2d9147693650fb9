import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Why a job failed, in words (jobs.error_message beside error_code), and the history of its attempts
// (job_attempts): one row per claim that ended, written by a trigger on the jobs row itself, so every
// path that ends an attempt (the runner's outcomes, the lease sweeper, a release on shutdown) records
// it without a statement of its own. See docs/jobs.md ("Failures and attempts").
export async function up(db: Kysely<any>): Promise<void> {
  // A fixed, safe sentence (core/errors.ts AppError messages; workers/failure-message.ts): never user text or an ID.
  await db.schema.alterTable("jobs").addColumn("error_message", "text").execute();
  // When the running attempt was claimed (started_at is the first claim's time).
  await db.schema.alterTable("jobs").addColumn("attempt_started_at", "timestamptz").execute();
  await db.schema
    .createTable("job_attempts")
    .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("started_at", "timestamptz")
    .addColumn("ended_at", "timestamptz", (c) => c.notNull())
    // The status the attempt left the row in: queued (retried or handed back) or a terminal status.
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addPrimaryKeyConstraint("job_attempts_pk", ["job_id", "attempt"])
    .execute();
  await sql`
    create function jobs_attempt_history() returns trigger language plpgsql as $$
    begin
      -- A new code without a new message (the lease sweeper, a release, a cancel): the old sentence no longer applies.
      if new.error_code is distinct from old.error_code and new.error_message is not distinct from old.error_message then
        new.error_message := null;
      end if;
      if new.status = 'running' and old.status <> 'running' then
        new.attempt_started_at := new.updated_at;
      elsif old.status = 'running' and new.status <> 'running' then
        insert into job_attempts (job_id, attempt, lease_owner, started_at, ended_at, outcome, error_code, error_message)
        values (old.id, old.attempts, old.lease_owner, old.attempt_started_at, new.updated_at, new.status,
                case when new.status = 'succeeded' then null else new.error_code end,
                case when new.status = 'succeeded' then null else new.error_message end)
        on conflict (job_id, attempt) do nothing;
      end if;
      return new;
    end $$`.execute(db);
  // Only status changes fire it: lease renewals and progress reports do not.
  await sql`create trigger jobs_attempt_history before update of status on jobs
    for each row when (old.status is distinct from new.status) execute function jobs_attempt_history()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists jobs_attempt_history on jobs`.execute(db);
  await sql`drop function if exists jobs_attempt_history()`.execute(db);
  await db.schema.dropTable("job_attempts").execute();
  await db.schema.alterTable("jobs").dropColumn("attempt_started_at").execute();
  await db.schema.alterTable("jobs").dropColumn("error_message").execute();
}

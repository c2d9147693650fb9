import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// The console's charts over time (queues/sql/jobCharts.ts; docs/observability.md): jobs that ended
// in a window, by end time, and jobs that were waiting during it, by when they left the queue
// (first claim, or end without one; null while still waiting).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index jobs_finished_idx on jobs (finished_at) where finished_at is not null`.execute(db);
  await sql`create index jobs_left_queue_idx on jobs ((coalesce(started_at, finished_at)))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists jobs_left_queue_idx`.execute(db);
  await sql`drop index if exists jobs_finished_idx`.execute(db);
}

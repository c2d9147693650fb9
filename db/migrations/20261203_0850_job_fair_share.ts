import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Fair share between organisations (queues/sql/fairShare.ts, docs/jobs.md "Fair share"):
// - jobs_fair_idx: the claim's loose index scan over the (organisation, session) keys with
//   queued rows of a pool, and each key's rows in FIFO order; also the per-organisation
//   count of queued rows the submission cap reads. System rows are the key ('', '').
// - jobs_running_key_idx: running rows of a pool per organisation and session (turns count
//   what already runs; the running cap).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index jobs_fair_idx on jobs (pool, (coalesce(tenant_id, '')), (coalesce(session_id, '')), run_at, id) where status = 'queued'`.execute(db);
  await sql`create index jobs_running_key_idx on jobs (pool, (coalesce(tenant_id, '')), (coalesce(session_id, ''))) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index jobs_running_key_idx`.execute(db);
  await sql`drop index jobs_fair_idx`.execute(db);
}

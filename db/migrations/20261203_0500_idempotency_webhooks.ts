import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Idempotent submissions and completion webhooks. See docs/jobs.md.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per (execution identity, key): the job a submission with that key created, for 24 h.
  // The key itself is never stored, only its SHA-256 (a client may put anything in a key).
  await db.schema
    .createTable("job_idempotency_keys")
    .addColumn("tenant_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull())
    // SHA-256 of the canonical JSON of {kind, repo_id, params}: the same key with another body is refused.
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("job_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("job_idempotency_keys_pkey", ["tenant_id", "subject_id", "session_id", "key_hash"])
    // Deferred: the key is claimed before its job row is inserted, in the same transaction.
    .addForeignKeyConstraint("job_idempotency_keys_job_fk", ["job_id"], "jobs", ["id"], (fk) => fk.onDelete("cascade").deferrable().initiallyDeferred())
    .execute();
  await db.schema.createIndex("job_idempotency_keys_expiry_idx").on("job_idempotency_keys").column("expires_at").execute();
  await db.schema.createIndex("job_idempotency_keys_session_idx").on("job_idempotency_keys").columns(["tenant_id", "session_id"]).execute();

  // At most one webhook per organisation (an org admin's URL and signing secret).
  await db.schema
    .createTable("org_webhooks")
    .addColumn("org_id", "text", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("job_id", "text", (c) => c.notNull().unique().references("jobs.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sending', 'delivered', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
    .addColumn("lease_token", "text")
    .addColumn("lease_expires_at", "timestamptz")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("delivered_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addCheckConstraint("webhook_deliveries_lease_check", sql`(status = 'sending') = (lease_token is not null)`)
    .execute();
  await db.schema.createIndex("webhook_deliveries_due_idx").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_org_idx").on("webhook_deliveries").columns(["org_id", "created_at"]).execute();

  // A delivery is recorded in the same transaction as the job's terminal status, whichever statement
  // writes it (finish, fail, refuse, cancel, reclaim): a trigger, so no status path can forget it.
  // Time is the row's own (the injected clock's), not now(). No NOTIFY here: a notifying transaction
  // holds PostgreSQL's global notify lock through its commit (docs/jobs.md, Dispatch).
  await sql`
    create function codesynapse_record_webhook_delivery() returns trigger
    language plpgsql set search_path from current as $$
    begin
      insert into webhook_deliveries (id, org_id, job_id, event, status, attempts, next_attempt_at, created_at, updated_at)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), w.org_id, new.id, 'job.completed', 'pending', 0,
             new.updated_at, new.updated_at, new.updated_at
        from org_webhooks w
       where w.org_id = new.tenant_id and w.enabled
      on conflict (job_id) do nothing;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger jobs_terminal_webhook after update of status on jobs for each row
    when (not new.system
          and new.status in ('succeeded', 'failed', 'canceled', 'abandoned', 'refused')
          and old.status not in ('succeeded', 'failed', 'canceled', 'abandoned', 'refused'))
    execute function codesynapse_record_webhook_delivery()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists jobs_terminal_webhook on jobs`.execute(db);
  await sql`drop function if exists codesynapse_record_webhook_delivery()`.execute(db);
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("org_webhooks").execute();
  await db.schema.dropTable("job_idempotency_keys").execute();
}

import type { Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// The W3C traceparent of the request that submitted a job; the worker continues
// that trace (queues/trace-context.ts, docs/observability.md). Null when tracing is off.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("traceparent", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("traceparent").execute();
}

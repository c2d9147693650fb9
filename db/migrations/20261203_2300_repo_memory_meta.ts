import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
// Durable repository memory that changes (docs/memory.md, "Memory that changes"): the repository's lock
// row also keeps a revision, bumped by every write under the lock (a write that ends facts checks it),
// and the repository's meta document — its fact history and single-valued predicates.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repo_memory_locks")
    .addColumn("revision", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("doc", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repo_memory_locks").dropColumn("doc").dropColumn("revision").execute();
}

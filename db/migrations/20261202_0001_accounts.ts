import { sql, type Kysely } from "kysely";

// Frozen once released: write a new migration instead of editing this one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("suspended_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text")
    .addColumn("is_platform_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("suspended_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn("suspended_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("memberships_pk", ["org_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user_idx").on("memberships").column("user_id").execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("prefix", "text", (c) => c.notNull().unique())
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("login_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("repositories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("repositories_org_name_uq", ["org_id", "name"])
    .execute();

  await db.schema
    .createTable("repo_permissions")
    .addColumn("repo_id", "text", (c) => c.notNull().references("repositories.id"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("level", "text", (c) => c.notNull().check(sql`level in ('read', 'write', 'admin')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("repo_permissions_pk", ["repo_id", "user_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["repo_permissions", "repositories", "login_sessions", "api_keys", "memberships", "users", "organizations"]) {
    await db.schema.dropTable(t).execute();
  }
}

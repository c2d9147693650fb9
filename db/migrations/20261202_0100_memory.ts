import { sql, type Kysely } from "kysely";

// Session memory (MEM-2) and durable repository memory (MEM-6).
// Frozen once released: write a new migration instead of editing this one.
export async function up(db: Kysely<any>): Promise<void> {
  // Per-tenant lock row: every session-memory write locks it (FOR UPDATE) so quota checks are serial per tenant.
  await db.schema.createTable("session_memory_tenants").addColumn("tenant_id", "text", (c) => c.primaryKey()).execute();

  await db.schema
    .createTable("session_memory_revocations")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("session_memory_revocations_pk", ["tenant_id", "session_id"])
    .execute();

  await db.schema
    .createTable("session_memory_scopes")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("ns", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("doc", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("deleted_at", "timestamptz")
    .addColumn("fact_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("entity_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("size_bytes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("session_memory_scopes_pk", ["tenant_id", "session_id", "ns"])
    .execute();
  await db.schema.createIndex("session_memory_scopes_expiry_idx").on("session_memory_scopes").columns(["expires_at"]).execute();

  await db.schema
    .createTable("session_memory_entities")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("ns", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("doc", "jsonb", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("session_memory_entities_pk", ["tenant_id", "session_id", "ns", "id"])
    .addForeignKeyConstraint("session_memory_entities_scope_fk", ["tenant_id", "session_id", "ns"], "session_memory_scopes", ["tenant_id", "session_id", "ns"])
    .execute();
  await db.schema.createIndex("session_memory_entities_expiry_idx").on("session_memory_entities").columns(["expires_at"]).execute();

  // Both endpoints reference entities of the same (tenant, session, ns): a fact cannot cross scopes.
  await db.schema
    .createTable("session_memory_facts")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("ns", "text", (c) => c.notNull())
    .addColumn("fact_id", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("predicate", "text", (c) => c.notNull())
    .addColumn("object_id", "text", (c) => c.notNull())
    .addColumn("doc", "jsonb", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("session_memory_facts_pk", ["tenant_id", "session_id", "ns", "fact_id"])
    .addForeignKeyConstraint("session_memory_facts_subject_fk", ["tenant_id", "session_id", "ns", "subject_id"], "session_memory_entities", ["tenant_id", "session_id", "ns", "id"])
    .addForeignKeyConstraint("session_memory_facts_object_fk", ["tenant_id", "session_id", "ns", "object_id"], "session_memory_entities", ["tenant_id", "session_id", "ns", "id"])
    .execute();
  await db.schema.createIndex("session_memory_facts_expiry_idx").on("session_memory_facts").columns(["expires_at"]).execute();

  // The local vector index's rows (VECTOR_INDEX=local): exact similarity in process over one scope.
  await db.schema
    .createTable("session_memory_vectors")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("ns", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("vector", sql`double precision[]`, (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("session_memory_vectors_pk", ["tenant_id", "session_id", "ns", "id", "model"])
    .execute();
  await db.schema.createIndex("session_memory_vectors_expiry_idx").on("session_memory_vectors").columns(["expires_at"]).execute();

  // Durable repository memory: nodes (label `Node`) and edges (`FACT` for memory facts).
  await db.schema.createTable("repo_memory_locks").addColumn("repo_id", "text", (c) => c.primaryKey()).execute();
  await db.schema
    .createTable("repo_nodes")
    .addColumn("repo_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull().defaultTo("Node"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("props", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("origin_session_id", "text")
    .addColumn("embedding_model", "text")
    .addColumn("embedding", sql`double precision[]`)
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("repo_nodes_pk", ["repo_id", "id"])
    .execute();
  await db.schema.createIndex("repo_nodes_name_idx").on("repo_nodes").columns(["repo_id", "name_key"]).execute();
  await db.schema
    .createTable("repo_edges")
    .addColumn("repo_id", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("src", "text", (c) => c.notNull())
    .addColumn("predicate", "text", (c) => c.notNull())
    .addColumn("dst", "text", (c) => c.notNull())
    .addColumn("props", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("origin_session_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("repo_edges_pk", ["repo_id", "id"])
    .addForeignKeyConstraint("repo_edges_src_fk", ["repo_id", "src"], "repo_nodes", ["repo_id", "id"])
    .addForeignKeyConstraint("repo_edges_dst_fk", ["repo_id", "dst"], "repo_nodes", ["repo_id", "id"])
    .execute();
  await db.schema.createIndex("repo_edges_src_idx").on("repo_edges").columns(["repo_id", "src"]).execute();
  await db.schema.createIndex("repo_edges_dst_idx").on("repo_edges").columns(["repo_id", "dst"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "repo_edges",
    "repo_nodes",
    "repo_memory_locks",
    "session_memory_vectors",
    "session_memory_facts",
    "session_memory_entities",
    "session_memory_scopes",
    "session_memory_revocations",
    "session_memory_tenants",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}

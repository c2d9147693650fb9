/** Table types of session memory and durable repository memory (migration 20261202_0100_memory). */
import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read as parsed JSON, written as a JSON string. */
type Json<T> = ColumnType<T, string, string>;

export interface SessionMemoryTenantsTable {
  tenant_id: string;
}

export interface SessionMemoryRevocationsTable {
  tenant_id: string;
  session_id: string;
  revoked_at: Timestamp;
}

export interface SessionMemoryScopesTable {
  tenant_id: string;
  session_id: string;
  ns: string;
  subject_id: string;
  doc: Json<Record<string, unknown>>;
  revision: number;
  expires_at: Timestamp;
  deleted_at: Timestamp | null;
  fact_count: number;
  entity_count: number;
  size_bytes: number;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface SessionMemoryEntitiesTable {
  tenant_id: string;
  session_id: string;
  ns: string;
  id: string;
  name: string;
  type: string;
  doc: Json<{ aliases?: string[] }>;
  expires_at: Timestamp;
}

export interface SessionMemoryFactsTable {
  tenant_id: string;
  session_id: string;
  ns: string;
  fact_id: string;
  subject_id: string;
  predicate: string;
  object_id: string;
  doc: Json<{ source?: string }>;
  expires_at: Timestamp;
}

export interface SessionMemoryVectorsTable {
  tenant_id: string;
  session_id: string;
  ns: string;
  id: string;
  model: string;
  /** float4 big-endian, 4 bytes a dimension (migration 20261203_0600_code_intel). */
  vector: Uint8Array;
  expires_at: Timestamp;
}

export interface RepoMemoryLocksTable {
  repo_id: string;
  /** Bumped by every write under the lock (migration 20261203_2300). */
  revision: ColumnType<string | number, number | undefined, number>;
  /** The repository's meta document: history and single-valued predicates. */
  doc: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface RepoNodesTable {
  repo_id: string;
  id: string;
  label: ColumnType<string, string | undefined, string>;
  name: string;
  name_key: string;
  type: string;
  props: Json<Record<string, unknown>>;
  origin_session_id: string | null;
  embedding_model: string | null;
  embedding: number[] | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** The staged generation that wrote it, until compaction (null = visible; db/graph/postgres/generations.ts). */
  gen: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RepoEdgesTable {
  repo_id: string;
  id: string;
  label: string;
  src: string;
  predicate: string;
  dst: string;
  props: Json<Record<string, unknown>>;
  origin_session_id: string | null;
  created_at: CreatedAt;
  gen: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A staged ingest's generation (migration 20261203_1000_graph_generations; db/graph/postgres/generations.ts). */
export interface RepoGraphGensTable {
  id: string;
  repo_id: string;
  job_id: string;
  lease_token: string;
  created_at: Timestamp;
  published_at: Timestamp | null;
}

/** The per-file parse cache of incremental ingest (migration 20261203_0600_code_intel). */
export interface RepoIngestFilesTable {
  repo_id: string;
  path: string;
  /** Hex SHA-256 of the file's text as parsed. */
  sha256: string;
  /** The parser and its rules' version that produced `parsed` (a new version parses again). */
  parser: string;
  parsed: ColumnType<unknown, string | null, string | null>;
  updated_at: Timestamp;
  gen: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface MemoryTables {
  session_memory_tenants: SessionMemoryTenantsTable;
  session_memory_revocations: SessionMemoryRevocationsTable;
  session_memory_scopes: SessionMemoryScopesTable;
  session_memory_entities: SessionMemoryEntitiesTable;
  session_memory_facts: SessionMemoryFactsTable;
  session_memory_vectors: SessionMemoryVectorsTable;
  repo_memory_locks: RepoMemoryLocksTable;
  repo_nodes: RepoNodesTable;
  repo_edges: RepoEdgesTable;
  repo_ingest_files: RepoIngestFilesTable;
  repo_graph_gens: RepoGraphGensTable;
}

/**
 * The table map. Each later migration adds its tables here, beside the
 * accounts tables; row types are inferred by Kysely from these.
 */
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { NamespaceStoreReceipt } from "../core/retention/receipt-store";
import type { JobEventTables } from "./job-events-schema";
import type { MemoryTables } from "./memory-schema";
import type { BindingKind, RepoLevel, Role, TombstoneReason } from "../core/identity-store";

export type { BindingKind, RepoLevel, Role, TombstoneReason };

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface OrganizationsTable {
  id: string;
  name: string;
  suspended_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  is_platform_admin: Generated<boolean>;
  suspended_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: Role;
  suspended_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  user_id: string;
  prefix: string;
  key_hash: string;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface LoginSessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface RepositoriesTable {
  id: string;
  org_id: string;
  name: string;
  created_at: CreatedAt;
}

export interface RepoPermissionsTable {
  repo_id: string;
  user_id: string;
  level: RepoLevel;
  created_at: CreatedAt;
}

export interface SessionBindingsTable {
  session_id: string;
  org_id: string;
  user_id: string;
  kind: BindingKind;
  login_session_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  tombstoned_at: Timestamp | null;
  tombstone_reason: TombstoneReason | null;
  cleanup_done_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: Timestamp;
  org_id: string | null;
  actor_user_id: string | null;
  actor_key_id: string | null;
  action: string;
  outcome: string;
  session_target: string | null;
  details: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

export interface Database extends MemoryTables, JobEventTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  login_sessions: LoginSessionsTable;
  repositories: RepositoriesTable;
  repo_permissions: RepoPermissionsTable;
  session_bindings: SessionBindingsTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  job_attempts: JobAttemptsTable;
  job_schedules: JobSchedulesTable;
  ingest_uploads: IngestUploadsTable;
  mcp_sessions: McpSessionsTable;
  session_erasure_receipts: SessionErasureReceiptsTable;
  namespace_erasure_receipts: NamespaceErasureReceiptsTable;
  forget_erasure_receipts: ForgetErasureReceiptsTable;
}

/** The recorded erasure receipt of a cleared session-memory namespace (core/retention/receipts.ts). */
export interface NamespaceErasureReceiptsTable {
  tenant_id: string;
  session_id: string;
  repo_id: string;
  stores: ColumnType<NamespaceStoreReceipt[], string, string>;
  done: ColumnType<boolean, boolean | undefined, boolean>;
  clears: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date, Date>;
  updated_at: ColumnType<Date, Date, Date>;
}

/** The recorded erasure receipt of a forget-session on repository memory (core/retention/receipts.ts). */
export interface ForgetErasureReceiptsTable {
  tenant_id: string;
  session_id: string;
  repo_id: string;
  stores: ColumnType<NamespaceStoreReceipt[], string, string>;
  fact_ids: ColumnType<string[], string | undefined, string>;
  done: ColumnType<boolean, boolean | undefined, boolean>;
  forgets: ColumnType<number, number | undefined, number>;
  forgotten_at: ColumnType<Date, Date, Date>;
  created_at: ColumnType<Date, Date, Date>;
  updated_at: ColumnType<Date, Date, Date>;
}

/** The recorded erasure receipt of a revoked or expired session (core/retention/receipts.ts). */
export interface SessionErasureReceiptsTable {
  tenant_id: string;
  session_id: string;
  stores: ColumnType<Array<{ store: string; removed: number; status: "done" | "pending" }>, string, string>;
  done: ColumnType<boolean, boolean | undefined, boolean>;
  passes: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date, Date>;
  updated_at: ColumnType<Date, Date, Date>;
  done_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** MCP Streamable HTTP sessions (core/mcp-sessions.ts, db/sql/mcp-sessions/): keyed by the hash of the transport ID. */
export interface McpSessionsTable {
  id_hash: string;
  init: unknown;
  owner_org_id: string | null;
  owner_user_id: string | null;
  owner_session_id: string | null;
  created_at: Date;
  last_seen_at: Date;
}

/** Uploaded snapshot archives (WRK-2), owned by the uploading execution identity. */
export interface IngestUploadsTable {
  id: string;
  tenant_id: string;
  subject_id: string;
  session_id: string;
  repo_id: string;
  format: "tar" | "tar.gz" | "zip";
  size: number;
  sha256: string;
  content: Uint8Array;
  created_at: Date;
  expires_at: Date;
  /** Set by the ingest that consumed it: kept as the repository's last snapshot (fix jobs) until expires_at. */
  ingested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything that can run a query: the root handle or a transaction. */
export type Queryable = Kysely<Database>;

export type Organization = Selectable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type LoginSession = Selectable<LoginSessionsTable>;
export type Repository = Selectable<RepositoriesTable>;
export type SessionBinding = Selectable<SessionBindingsTable>;
export type NewUser = Insertable<UsersTable>;

// Durable jobs (queues/, JOB-1, JOB-7). Row types sit in queues/jobs.ts.
type Json = ColumnType<unknown, string, string>;
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "canceled" | "abandoned" | "refused";
export interface JobsTable {
  id: string;
  kind: string;
  pool: string;
  params: Json;
  repo_id: string | null;
  system: boolean;
  tenant_id: string | null;
  subject_id: string | null;
  session_id: string | null;
  parent_session_id: string | null;
  actor_user_id: string | null;
  api_key_id: string | null;
  login_session_id: string | null;
  status: JobStatus;
  restartable: boolean;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  dispatched_at: Timestamp | null;
  lease_owner: string | null;
  lease_token: string | null;
  lease_expires_at: Timestamp | null;
  cancel_requested_at: Timestamp | null;
  result: ColumnType<unknown, string | null, string | null>;
  error_code: string | null;
  /** Why, in a fixed safe sentence beside error_code (migration 20261203_0800); null while none. */
  error_message: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the running attempt was claimed (set by the attempt-history trigger). */
  attempt_started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  schedule_id: string | null;
  /** W3C traceparent of the submitting request's span (queues/trace-context.ts); null without tracing. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** Files done of total while an ingest runs (migration 20261203_0600); null for kinds that report none. */
  progress_done: ColumnType<number | null, number | null | undefined, number | null>;
  progress_total: ColumnType<number | null, number | null | undefined, number | null>;
  /** The job whose run began this one's chain of follow-ups (migration 20261205_0200); null for a job a client or a schedule submitted. */
  origin_job_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One ended attempt of a job (migration 20261203_0800): written by a trigger when a running row leaves running. */
export interface JobAttemptsTable {
  job_id: string;
  attempt: number;
  lease_owner: string | null;
  started_at: Date | null;
  ended_at: Date;
  outcome: string;
  error_code: string | null;
  error_message: string | null;
}

export interface JobSchedulesTable {
  id: string;
  kind: string;
  params: Json;
  repo_id: string | null;
  interval_ms: number;
  system: boolean;
  tenant_id: string | null;
  subject_id: string | null;
  session_id: string | null;
  parent_session_id: string | null;
  actor_user_id: string | null;
  api_key_id: string | null;
  login_session_id: string | null;
  enabled: boolean;
  next_run_at: Timestamp;
  last_run_at: Timestamp | null;
  last_job_id: string | null;
  last_error_code: string | null;
  created_at: Timestamp;
}

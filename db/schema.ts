/**
 * The table map. Each later migration adds its tables here, beside the
 * accounts tables; row types are inferred by Kysely from these.
 */
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from "kysely";

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

export type Role = "owner" | "admin" | "member";
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

export type RepoLevel = "read" | "write" | "admin";
export interface RepoPermissionsTable {
  repo_id: string;
  user_id: string;
  level: RepoLevel;
  created_at: CreatedAt;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  login_sessions: LoginSessionsTable;
  repositories: RepositoriesTable;
  repo_permissions: RepoPermissionsTable;
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
export type NewUser = Insertable<UsersTable>;

/** Table types of idempotent submissions and completion webhooks (migration 20261203_0500_idempotency_webhooks). */
import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface JobIdempotencyKeysTable {
  tenant_id: string;
  subject_id: string;
  session_id: string;
  /** hex SHA-256 of the client's key: the key itself is never stored. */
  key_hash: string;
  /** hex SHA-256 of the canonical JSON of {kind, repo_id, params}. */
  request_hash: string;
  job_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface OrgWebhooksTable {
  org_id: string;
  url: string;
  /** The HMAC signing secret: never logged, shown once when set. */
  secret: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookDeliveryStatus = "pending" | "sending" | "delivered" | "failed";
export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  job_id: string;
  event: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Timestamp;
  lease_token: string | null;
  lease_expires_at: Timestamp | null;
  last_status: number | null;
  /** A closed code (http_503, timeout, connect_failed, …): never a response body. */
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JobEventTables {
  job_idempotency_keys: JobIdempotencyKeysTable;
  org_webhooks: OrgWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

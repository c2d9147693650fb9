/**
 * Every migration, in order. A static map (no directory scan) so the same
 * list runs from tsx, vitest and a bundled build. Names are timestamped;
 * add new ones at the end, never edit a released one.
 */
import type { Migration } from "kysely/migration";
import * as accounts from "./20261202_0001_accounts";
import * as sessionRegistry from "./20261202_0002_session_registry";
import * as memory from "./20261202_0100_memory";
import * as jobs from "./20261202_0200_jobs";
import * as ingestUploads from "./20261202_0300_ingest_uploads";
import * as jobTraceparent from "./20261203_0400_job_traceparent";
import * as idempotencyWebhooks from "./20261203_0500_idempotency_webhooks";
import * as codeIntel from "./20261203_0600_code_intel";
import * as mcpSessions from "./20261203_0700_mcp_sessions";
import * as jobFailures from "./20261203_0800_job_failures";
import * as retainedUploads from "./20261203_0810_retained_uploads";
import * as jobFairShare from "./20261203_0850_job_fair_share";
import * as sessionErasureReceipts from "./20261203_0950_session_erasure_receipts";
import * as graphGenerations from "./20261203_1000_graph_generations";
import * as repoMemoryMeta from "./20261203_2300_repo_memory_meta";
import * as namespaceErasureReceipts from "./20261203_2310_namespace_erasure_receipts";
import * as forgetErasureReceipts from "./20261204_0000_forget_erasure_receipts";
import * as jobChartIndexes from "./20261205_0100_job_chart_indexes";
import * as jobFollowUps from "./20261205_0200_job_follow_ups";

export const migrations: Record<string, Migration> = {
  "20261202_0001_accounts": accounts,
  "20261202_0002_session_registry": sessionRegistry,
  "20261202_0100_memory": memory,
  "20261202_0200_jobs": jobs,
  "20261202_0300_ingest_uploads": ingestUploads,
  "20261203_0400_job_traceparent": jobTraceparent,
  "20261203_0500_idempotency_webhooks": idempotencyWebhooks,
  "20261203_0600_code_intel": codeIntel,
  "20261203_0700_mcp_sessions": mcpSessions,
  "20261203_0800_job_failures": jobFailures,
  "20261203_0810_retained_uploads": retainedUploads,
  "20261203_0850_job_fair_share": jobFairShare,
  "20261203_0950_session_erasure_receipts": sessionErasureReceipts,
  "20261203_1000_graph_generations": graphGenerations,
  "20261203_2300_repo_memory_meta": repoMemoryMeta,
  "20261203_2310_namespace_erasure_receipts": namespaceErasureReceipts,
  "20261204_0000_forget_erasure_receipts": forgetErasureReceipts,
  "20261205_0100_job_chart_indexes": jobChartIndexes,
  "20261205_0200_job_follow_ups": jobFollowUps,
};

/**
 * The relational stores the rules use, each an interface declared beside its rules and implemented in
 * db/ (db/stores.ts builds them over one database; main/ hands them to the API and the pools). `H` is
 * the transaction handle of the writes that commit with a job's fenced finish.
 */
import type { ParseCacheStore } from "./ingest/parse-cache-store";
import type { UploadStore } from "./ingest/upload-store";
import type { McpSessionStore } from "./mcp-sessions";
import type { ErasureReceiptStore } from "./retention/receipt-store";
import type { SweepStore } from "./retention/sweep-store";

export interface Stores<H = unknown> {
  /** Erasure receipts of ended sessions, cleared namespaces and forgets (core/retention/receipts.ts). */
  receipts: ErasureReceiptStore<H>;
  /** The bindings' side of the cleanup sweep (core/retention/cleanup.ts). */
  sweep: SweepStore<H>;
  /** Uploaded snapshot archives (core/ingest/uploads.ts). */
  uploads: UploadStore<H>;
  /** The parse cache of incremental ingest (core/ingest/incremental.ts). */
  parseCache: ParseCacheStore<H>;
  /** Durable MCP Streamable HTTP sessions (core/mcp-sessions.ts). */
  mcpSessions: McpSessionStore;
}

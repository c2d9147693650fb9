/**
 * Every limit of the platform, named, with the spec requirement it serves.
 * Change a number here and nowhere else.
 */

/**
 * HTTP-6: request bodies larger than this are refused with 413 before any work — unless the route's
 * operation declares a larger body (`Operation.bodyBytes`: a documented limit of one of its fields needs it).
 */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * HTTP-6 (core/boundary.ts): IDs, names and refs — sessions, repositories, jobs, uploads, facts — and every
 * segment of a request path; and how deep a JSON body or tool arguments may nest.
 */
export const MAX_ID_CHARS = 128;
export const MAX_JSON_DEPTH = 32;

/** REG-4: a binding lives exactly this long after registration; nothing extends it. */
export const BINDING_TTL_MS = 7 * 24 * 3600 * 1000;
/** REG-6: per organisation. */
export const MAX_ACTIVE_BINDINGS_PER_ORG = 1024;
export const MAX_RETAINED_BINDINGS_PER_ORG = 65536;
/** HTTP-3: the dashboard binding's window (the ID changes at each window boundary). */
export const DASHBOARD_WINDOW_MS = BINDING_TTL_MS;

/** MEM-3: session memory, per namespace (one namespace = one repository of one session). */
export const MAX_FACTS_PER_NAMESPACE = 512;
export const MAX_ENTITIES_PER_NAMESPACE = 1024;
/** MEM-3: the canonical serialized snapshot of one namespace (see core/memory/snapshot.ts). */
export const MAX_SNAPSHOT_BYTES = 24 * 1024;
/** MEM-3: per session. Retained namespaces include cleared and expired ones (lifetime cap). */
export const MAX_NAMESPACES_PER_SESSION = 16;
export const MAX_LIVE_FACTS_PER_SESSION = 2048;
/** MEM-3: per tenant. Retained roots include cleared and expired ones (lifetime cap). */
export const MAX_SCOPE_ROOTS_PER_TENANT = 2048;
export const MAX_LIVE_FACTS_PER_TENANT = 65536;
/** HTTP-4a: triples in one upsert; entity names; predicates; `source`. */
export const MAX_TRIPLES_PER_UPSERT = 512;
export const MAX_ENTITY_NAME_CHARS = 256;
export const MAX_SOURCE_CHARS = 1024;
/** HTTP-4: `GET /session-memory?limit` and recall `limit` bounds. */
export const MAX_MEMORY_READ_LIMIT = 1024;
export const MAX_RECALL_LIMIT = 50;
export const MAX_RECALL_QUERY_CHARS = 2048;
/** HTTP-4: promotion takes 1..50 fact ids. */
export const MAX_PROMOTE_FACT_IDS = 50;
/**
 * Fact history of one session namespace: superseded and retracted facts kept
 * beside the live snapshot (core/memory/history.ts). Counted apart from the
 * live limits above, and toward the per-session and per-tenant fact quotas.
 */
export const MAX_HISTORY_PER_NAMESPACE = 512;
export const MAX_HISTORY_BYTES = 256 * 1024;
/** Predicates a namespace may declare single-valued (one live object per subject). */
export const MAX_SINGLE_VALUED_PREDICATES = 32;
/** Facts one upsert may name in `supersedes`. */
export const MAX_SUPERSEDES = 64;
/** Export / import of one session namespace, JSON Lines: lines and total characters. */
export const MAX_IMPORT_LINES = MAX_FACTS_PER_NAMESPACE + MAX_ENTITIES_PER_NAMESPACE + MAX_HISTORY_PER_NAMESPACE + 1;
export const MAX_IMPORT_CHARS = 1024 * 1024;
/**
 * The most bytes one JSON string of `chars` UTF-16 code units can take in a request body, whatever
 * the client's encoder does: every unit written as a `\uXXXX` escape (6 bytes), plus the quotes.
 * JSON.stringify writes 1-3 bytes a unit; Python's json.dumps (ensure_ascii) writes 6 for non-ASCII.
 */
export function jsonStringMaxBytes(chars: number): number {
  return 6 * chars + 2;
}
/** Room a body gets for its other fields (and the MCP envelope) beside its one large text. */
export const BODY_ENVELOPE_BYTES = 64 * 1024;
/**
 * HTTP-6, per route: the JSON body of an import (session or repository memory, REST and MCP): its
 * text at MAX_IMPORT_CHARS in any JSON encoding, so every export (at most MAX_IMPORT_CHARS) imports.
 */
export const IMPORT_BODY_BYTES = jsonStringMaxBytes(MAX_IMPORT_CHARS) + BODY_ENVELOPE_BYTES;
/** Repository graph reads: nodes per search, hops and edges per subgraph. */
export const MAX_GRAPH_SEARCH_LIMIT = 200;
export const MAX_SUBGRAPH_DEPTH = 3;
export const MAX_SUBGRAPH_EDGES = 500;
/** VEC-3: the lexical candidate pool for one recall (bounded BM25). */
export const MAX_BM25_DOCUMENTS = 4096;
/** OFF-1: offload bounds (turns per request, chars per turn and per request, pending batches per process). */
export const MAX_OFFLOAD_TURNS = 64;
export const MAX_OFFLOAD_TURN_CHARS = 8192;
export const MAX_OFFLOAD_TOTAL_CHARS = 65536;
export const MAX_OFFLOAD_QUEUE_BATCHES = 256;
/** HTTP-6, per route: an offload's body: MAX_OFFLOAD_TOTAL_CHARS of turn text in any JSON encoding, and the turns' other fields. */
export const OFFLOAD_BODY_BYTES = jsonStringMaxBytes(MAX_OFFLOAD_TOTAL_CHARS) + BODY_ENVELOPE_BYTES;
/** MEM-6: durable repository memory, per repository, and per write. */
export const MAX_REPO_NODES = 200_000;
export const MAX_REPO_FACTS = 200_000;
/**
 * History of one repository's durable memory (superseded and retracted facts, core/memory/repository-history.ts):
 * entries and bytes of JSON. Counted toward MAX_REPO_FACTS with the live facts.
 */
export const MAX_REPO_HISTORY = 1024;
export const MAX_REPO_HISTORY_BYTES = 512 * 1024;
/**
 * Export / import of one repository's durable memory (core/memory/repository-transfer.ts): memory facts
 * (the code graph is re-derived by ingest and left out) and lines; the text is bounded by MAX_IMPORT_CHARS.
 */
export const MAX_REPO_TRANSFER_FACTS = 4096;
export const MAX_REPO_TRANSFER_LINES = 1 + 2 * MAX_REPO_TRANSFER_FACTS + MAX_REPO_TRANSFER_FACTS + MAX_REPO_HISTORY;
/** HTTP-4: `POST /memory/index` embeds at most this many durable entities per call. */
export const MAX_EMBED_BATCH = 256;
/** RET-1: rows removed per cleanup batch (purgeSession / purgeExpired). */
export const MEMORY_PURGE_BATCH = 500;
/** MCP-2: open Streamable HTTP transports per process; when full, the longest-idle unbound one is dropped first. */
export const MCP_MAX_TRANSPORTS = 4096;
/** MCP-2: a transport idle this long is closed; the client initializes again and re-presents its binding. */
export const MCP_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** MCP-2: the stored `initialize` params of one MCP session (replayed to rebuild it on another API node), serialized. */
export const MCP_MAX_INIT_BYTES = 16 * 1024;
/** MCP-2: durable MCP sessions idle past MCP_IDLE_TIMEOUT_MS removed per sweep batch. */
export const MCP_SWEEP_BATCH = 1000;
/** WRK-2: one ingest snapshot — files walked, bytes read in all, bytes read per file, directory depth, symbols per file. */
export const INGEST_MAX_FILES = 5000;
export const INGEST_MAX_TOTAL_BYTES = 32 * 1024 * 1024;
export const INGEST_MAX_FILE_BYTES = 512 * 1024;
export const INGEST_MAX_DEPTH = 32;
/** WRK-2 uploads: live uploads per session, how long an unused one is kept, and what extracting one may produce. */
export const INGEST_MAX_UPLOADS_PER_SESSION = 8;
export const INGEST_MAX_UPLOAD_BYTES_PER_TENANT = 1024 * 1024 * 1024;
export const INGEST_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
export const INGEST_MAX_ARCHIVE_ENTRIES = 20_000;
export const INGEST_MAX_EXTRACT_BYTES = 4 * INGEST_MAX_TOTAL_BYTES;
export const INGEST_MAX_SYMBOLS_PER_FILE = 500;
/** Distinct calls, and distinct type references, kept per parsed file. */
export const INGEST_MAX_USES_PER_FILE = 2000;
/** WRK-2: triples per repository-store write while ingesting (keeps statements under the parameter limit). */
export const INGEST_WRITE_CHUNK = 400;
/** WRK-4: batches of MAX_EMBED_BATCH one embedding job runs before it hands the rest to a follow-up job. */
export const EMBED_JOB_MAX_BATCHES = 8;
/** WRK-3: an AI task's question, and the facts retrieved from each memory for it. */
export const AI_MAX_QUESTION_CHARS = 4000;
export const AI_MAX_CONTEXT_FACTS = 24;
/** WRK-5: a fix job's problem text, files read for it, and the proposed patch. */
export const FIX_MAX_PROBLEM_CHARS = 4000;
export const FIX_MAX_FILES = 20;
export const FIX_MAX_PATCH_BYTES = 256 * 1024;

/** JOB-3/JOB-4/JOB-8: defaults of JOB_LEASE_MS, JOB_RECONCILE_MS and JOB_STALE_MS (core/config.ts). */
export const JOB_LEASE_MS = 30_000;
export const JOB_RECONCILE_MS = 5_000;
export const JOB_STALE_MS = 30_000;
/** RUN-5: default of SHUTDOWN_DRAIN_MS (core/config.ts), the bound of a graceful shutdown's drain. */
export const SHUTDOWN_DRAIN_MS = 10_000;

/** Issue 14: idempotent submissions (`Idempotency-Key`, `idempotency_key`): key length, and how long a key holds its job. */
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * An input read from a request header or a tool argument of that kind (an idempotency key, Last-Event-ID) is at most
 * this long: past it, validation_failed; up to it, a key that is not a valid key is idempotency_key_invalid.
 */
export const MAX_HEADER_INPUT_CHARS = 1024;
/** HTTP-5: the most jobs one page of GET /api/v1/jobs lists. */
export const MAX_JOB_LIST = 100;
/** A job view lists at most this many of its follow-up jobs: the newest (ops/job-view.ts). */
export const MAX_JOB_FOLLOW_UPS = 20;
/** How often an AI task waiting for its repository's embeddings checks them again (workers/pools/ai.ts). */
export const AI_RECALL_POLL_MS = 500;
/** The default and the largest AI_RECALL_WAIT_MS: how long an AI task waits for embeddings still being built. */
export const AI_RECALL_WAIT_MS = 60_000;
export const AI_RECALL_WAIT_MAX_MS = 10 * 60_000;
/** Issue 14: the longest a job read may wait for a terminal status (`GET /jobs/{id}?wait=`, `get_job` `wait_ms`). */
export const JOB_WAIT_MAX_MS = 30_000;
/** Issue 14: job event streams — one shared status read per process per poll, jobs watched at once, heartbeat, stream lifetime. */
export const JOB_WATCH_POLL_MS = 500;
export const MAX_WATCHED_JOBS = 4096;
export const JOB_EVENTS_HEARTBEAT_MS = 15_000;
export const JOB_EVENTS_MAX_STREAM_MS = 10 * 60_000;
/** Issue 14: completion webhooks — URL length, per-attempt timeout, deliveries sent per pass. */
export const WEBHOOK_URL_MAX_CHARS = 2048;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_BATCH = 16;
/** MCP task notifications (`subscriptions/listen` with `taskIds`): tasks one listener follows, listeners open at once per execution session on one node. */
export const MCP_LISTEN_MAX_TASKS = 64;
export const MCP_LISTENERS_PER_IDENTITY = 8;

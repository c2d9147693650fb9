/**
 * The platform's typed errors. Every error a caller can see has a stable
 * `code` and an HTTP status. Messages are fixed text chosen here: they never
 * carry a rejected ID, a token, a secret or user-supplied text.
 */
export const ERRORS = {
  // 400
  validation_failed: { status: 400, message: "The request is not valid." },
  invalid_session_header: {
    status: 400,
    message: "The execution session headers are not valid: send X-CodeSynapse-Session and X-CodeSynapse-Parent-Session, both the same thread ID of 1 to 128 characters of A-Z, a-z, 0-9 and . _ : -.",
  },
  session_source_conflict: {
    status: 400,
    message:
      "The request names two different threads (in its execution headers, its MCP _meta keys, its batch's messages or the runtime's environment); one request runs as one thread: name one, or the same ID in each place.",
  },
  invalid_identity: {
    status: 400,
    message: "The execution identity is not valid: tenant_id, subject_id, session_id and parent_session_id must each be 1 to 128 characters of A-Z, a-z, 0-9 and . _ : -, and parent_session_id must equal session_id.",
  },
  unknown_command: { status: 400, message: "There is no such command; the usage (on stderr) lists them." },
  idempotency_key_invalid: { status: 400, message: "The idempotency key must be 1 to 255 characters of A-Z, a-z, 0-9 and . _ : ~ + / = -." },
  mcp_protocol_unsupported: { status: 400, message: "The MCP-Protocol-Version header names a protocol version this server does not support." },
  // 401
  unauthenticated: { status: 401, message: "Authentication is required: send Authorization: Bearer <API key> (or sign in, for the browser pages)." },
  invalid_credentials: { status: 401, message: "The credentials are not valid: send Authorization: Bearer <API key>, or sign in again." },
  api_key_revoked: { status: 401, message: "The API key has been revoked: create a new one (codesynapse admin create-api-key)." },
  login_session_ended: { status: 401, message: "The sign-in has ended; sign in again." },
  // 403
  forbidden: { status: 403, message: "The caller may not do this." },
  user_suspended: { status: 403, message: "The user is suspended: an operator of the platform can lift it." },
  membership_suspended: { status: 403, message: "The membership in this organisation is suspended: an owner or admin of the organisation can lift it." },
  org_suspended: { status: 403, message: "The organisation is suspended: an operator of the platform can lift it." },
  not_a_member: { status: 403, message: "The user is not a member of this organisation: an owner or admin of it can add them, or select another (X-CodeSynapse-Org)." },
  org_selection_required: { status: 400, message: "Select an organisation with the X-CodeSynapse-Org header." },
  session_forbidden: {
    status: 403,
    message: "The execution session belongs to another caller (another user, or another sign-in's dashboard): name a thread registered by this caller, or register a new one.",
  },
  dashboard_session_named: { status: 403, message: "A dashboard session is implicit to its browser sign-in: it cannot be named or registered." },
  mcp_binding_mismatch: { status: 403, message: "This MCP session is bound to another execution session or caller." },
  repo_permission_denied: { status: 403, message: "The caller lacks the repository permission this needs." },
  platform_admin_required: { status: 403, message: "Platform administrator access is required." },
  mcp_origin_refused: { status: 403, message: "Requests from this Origin are not allowed on /mcp." },
  csrf_refused: { status: 403, message: "Cross-site request refused: a signed-in browser's changes must come from this site's own pages." },
  // 404
  not_found: { status: 404, message: "Not found." },
  session_not_found: {
    status: 404,
    message: "The execution session is not registered: register the thread with POST /api/v1/execution/sessions (the runtime's hook does) before naming it.",
  },
  repo_not_found: { status: 404, message: "The repository does not exist or is not visible." },
  job_not_found: { status: 404, message: "The job does not exist or is not visible." },
  upload_not_found: { status: 404, message: "The upload does not exist, has expired or is not visible to this session." },
  unknown_tool: { status: 404, message: "There is no tool by this name; tools/list names the tools." },
  // 409
  job_failed: { status: 409, message: "The job did not succeed; its status and error code are in the details." },
  conflict: { status: 409, message: "The request conflicts with the current state." },
  session_claimed: { status: 409, message: "The execution session is already bound to another caller: a thread ID is registered once, ever; use a new, unique ID." },
  idempotency_key_reused: { status: 409, message: "This idempotency key was used for a different request; use a new key for a new request." },
  revision_conflict: { status: 409, message: "The memory changed since it was read; reload and retry." },
  // 410
  session_expired: { status: 410, message: "The execution session has expired (7 days after registration) and can never be used again: register a new thread." },
  session_revoked: { status: 410, message: "The execution session has been revoked and can never be used again: register a new thread." },
  namespace_closed: { status: 410, message: "This session-memory namespace was cleared and is closed." },
  gone: { status: 410, message: "This endpoint has been removed." },
  // 413
  payload_too_large: { status: 413, message: "The request body is too large." },
  // 415
  unsupported_media_type: { status: 415, message: "The request body must be JSON (Content-Type: application/json)." },
  unsupported_archive: { status: 415, message: "The upload must be a tar, tar.gz or zip archive." },
  // 422 / 429: limits
  limit_exceeded: { status: 422, message: "A limit was reached." },
  invalid_archive: { status: 422, message: "The archive could not be read safely." },
  patch_does_not_apply: { status: 422, message: "The proposed patch does not apply to the snapshot (git apply --check refused it)." },
  rate_limited: { status: 429, message: "Too many requests; retry after the time in Retry-After." },
  // 499 / 5xx
  canceled: { status: 499, message: "The operation was canceled." },
  deadline_exceeded: { status: 504, message: "The operation's deadline passed." },
  data_dir_in_use: { status: 500, message: "The embedded database is in use by another process." },
  data_dir_upgrade_failed: { status: 500, message: "The embedded database could not be upgraded to this version's PGlite; it is unchanged." },
  internal: { status: 500, message: "Internal error." },
  unavailable: { status: 503, message: "A required service is unavailable." },
  provider_rate_limited: { status: 503, message: "The model provider is rate limiting; the job waits and runs again without spending an attempt." },
  dependency_unavailable: { status: 503, message: "A service this request needs is unavailable; retry shortly." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Safe, structured details (limit names, field paths) — never IDs or user text. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, opts: { message?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(opts.message ?? ERRORS[code].message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = opts.details;
  }
}

/** A limit was reached: `limit` names it (e.g. "facts_per_namespace") and `max` states it. */
export function limitError(limit: string, max: number): AppError {
  return new AppError("limit_exceeded", { message: `Limit reached: ${limit} (max ${max}).`, details: { limit, max } });
}

/**
 * Turns anything thrown into an AppError without leaking its message. A store that is
 * down or restarting (a transient error, below) is 503 `dependency_unavailable`, not 500:
 * the request may be retried once the store is back.
 */
export function coerceError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isTransientError(err)) return new AppError("dependency_unavailable", { cause: err });
  return new AppError("internal", { cause: err });
}

// Transient store errors (JOB-3, JOB-8; retried by core/retry.ts): a dropped or refused
// connection, a server shutting down or starting up, a serialization failure or a deadlock.
// Anything else (a constraint, a syntax error, bad input) is not transient.


/** SQLSTATE classes and codes that a retry can get past. */
const TRANSIENT_SQLSTATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available
  "57P01", // admin_shutdown (server restart, pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up)
  "53300", // too_many_connections
]);
const TRANSIENT_SQLSTATE_CLASSES = ["08"]; // connection exception

/** Node socket errors of a connection that went away or could not be made. */
const TRANSIENT_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/** The Neo4j driver's codes for a server it cannot reach or lost. */
const TRANSIENT_DRIVER_CODES = new Set(["ServiceUnavailable", "SessionExpired"]);
/** gRPC status UNAVAILABLE (Milvus). */
const GRPC_UNAVAILABLE = 14;

/** Messages the pg driver uses for a connection it lost (it sets no code on these). */
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /connection is closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /server closed the connection unexpectedly/i,
];

export function isTransientError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  if (err instanceof AppError) return err.code === "unavailable" || err.code === "dependency_unavailable" || (err.cause !== undefined && isTransientError(err.cause, depth + 1));
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string") {
    if (TRANSIENT_SQLSTATES.has(e.code) || TRANSIENT_ERRNOS.has(e.code) || TRANSIENT_DRIVER_CODES.has(e.code)) return true;
    if (e.code.startsWith("Neo.TransientError.")) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && TRANSIENT_SQLSTATE_CLASSES.includes(e.code.slice(0, 2))) return true;
  }
  if (e.code === GRPC_UNAVAILABLE && typeof (err as { details?: unknown }).details === "string") return true;
  if (typeof e.message === "string" && TRANSIENT_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isTransientError(x, depth + 1))) return true; // AggregateError (dual-stack connect)
  return e.cause !== undefined && isTransientError(e.cause, depth + 1);
}


export function isAppError(err: unknown, code?: ErrorCode): err is AppError {
  return err instanceof AppError && (code === undefined || err.code === code);
}

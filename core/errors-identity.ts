/**
 * Every refusal of the identity and authentication paths, by cause: which header, field, source or
 * rule failed, and how to put it right. The stable `code` (core/errors.ts) is what clients branch
 * on; several causes share one code and differ only in their message. Messages are fixed text:
 * they name headers, fields and rules, never the value that was refused (an ID, a key, a token).
 *
 * docs/identity.md tables every entry with its code, status and message;
 * test/unit/identity-refusals.test.ts holds the table and this catalog to agreeing.
 */
import { AppError, ERRORS, type ErrorCode } from "./errors";
import { MAX_ID_CHARS } from "./limits";

/** The execution ID rule in words (core/execution/identity.ts ID_PATTERN). */
export const ID_RULE = `1 to ${MAX_ID_CHARS} characters of A-Z, a-z, 0-9 and . _ : -`;

const SESSION = "X-CodeSynapse-Session";
const PARENT = "X-CodeSynapse-Parent-Session";
const REGISTER = "POST /api/v1/execution/sessions";

const identityField = (field: string) =>
  ({ code: "invalid_identity", where: "identity", message: `The execution identity's ${field} is not valid: it must be ${ID_RULE}.` }) as const;
const metaKey = (key: string) =>
  ({ code: "invalid_session_header", where: "MCP _meta", message: `The request's _meta${key.includes(".") ? `["${key}"]` : `.${key}`} is not a valid thread ID: it must be ${ID_RULE}.` }) as const;

export const IDENTITY_REFUSALS = {
  // The execution headers (REST and /mcp).
  session_header_alone: {
    code: "invalid_session_header",
    where: "HTTP headers",
    message: `${SESSION} was sent without ${PARENT}: send both, each with the thread's ID (a primary session is its own parent).`,
  },
  parent_header_alone: {
    code: "invalid_session_header",
    where: "HTTP headers",
    message: `${PARENT} was sent without ${SESSION}: send both, each with the thread's ID (a primary session is its own parent).`,
  },
  session_header_malformed: { code: "invalid_session_header", where: "HTTP headers", message: `${SESSION} is not a valid thread ID: it must be ${ID_RULE}.` },
  parent_header_malformed: { code: "invalid_session_header", where: "HTTP headers", message: `${PARENT} is not a valid thread ID: it must be ${ID_RULE}.` },
  session_headers_differ: {
    code: "invalid_session_header",
    where: "HTTP headers",
    message: `${PARENT} differs from ${SESSION}: a primary session is its own parent, so send the same ID in both.`,
  },
  session_not_named: {
    code: "invalid_session_header",
    where: "HTTP headers",
    message:
      `This request must name its thread: send ${SESSION} and ${PARENT}, both the ID of a thread registered with ${REGISTER} ` +
      `(on /mcp, _meta.threadId or _meta["vscode.conversationId"] may name it instead). Only a signed-in browser gets a thread implicitly.`,
  },
  // The runtimes' own thread IDs on /mcp.
  meta_thread_id_malformed: metaKey("threadId"),
  meta_conversation_id_malformed: metaKey("vscode.conversationId"),
  session_id_malformed: { code: "invalid_session_header", where: "binding", message: `The session ID is not a valid thread ID: it must be ${ID_RULE}.` },
  // The identity itself (registration names its session_id; every path builds one).
  identity_tenant_id_malformed: identityField("tenant_id"),
  identity_subject_id_malformed: identityField("subject_id"),
  identity_session_id_malformed: identityField("session_id"),
  identity_parent_session_id_malformed: identityField("parent_session_id"),
  identity_parent_differs: { code: "invalid_identity", where: "identity", message: "The execution identity's parent_session_id must equal its session_id: a primary session is its own parent." },
  // The credential.
  authorization_not_bearer: {
    code: "invalid_credentials",
    where: "credentials",
    message: "The Authorization header must be the word Bearer, one space and the API key (Authorization: Bearer csk_…); no other scheme is accepted.",
  },
  api_key_malformed: {
    code: "invalid_credentials",
    where: "credentials",
    message: "The bearer token is not an API key of this platform: a key is csk_, 8 hex digits, _ and 43 characters of A-Z a-z 0-9 _ -, exactly as it was printed when created.",
  },
  api_key_unknown: {
    code: "invalid_credentials",
    where: "credentials",
    message: "No API key of this server matches the bearer token: it was mistyped, deleted, or created on another server. Create a key with: codesynapse admin create-api-key.",
  },
  sign_in_unknown: { code: "invalid_credentials", where: "credentials", message: "The sign-in cookie is not valid (malformed, or not a sign-in of this server): sign in again." },
  login_refused: { code: "invalid_credentials", where: "sign-in", message: "The email or password is wrong." },
  org_header_malformed: {
    code: "validation_failed",
    where: "HTTP headers",
    message: `The X-CodeSynapse-Org header is not valid: it must be an organisation ID of at most ${MAX_ID_CHARS} characters with no control characters.`,
  },
} as const satisfies Record<string, { code: ErrorCode; where: string; message: string }>;

export type IdentityRefusal = keyof typeof IDENTITY_REFUSALS;

/** The refusal of one cause: its stable code and its message (with safe details, such as a field name). */
export function identityRefusal(cause: IdentityRefusal, details?: Record<string, unknown>): AppError {
  const r = IDENTITY_REFUSALS[cause];
  return new AppError(r.code, { message: r.message, ...(details ? { details } : {}) });
}

/** The refusal of an execution identity's field that breaks the ID rule. */
export function identityFieldRefusal(field: "tenant_id" | "subject_id" | "session_id" | "parent_session_id"): AppError {
  return identityRefusal(`identity_${field}_malformed`, { field });
}

/** The codes of the identity and authentication paths with one cause, said by core/errors.ts itself, and where they arise. */
export const SINGLE_CAUSE_CODES = {
  unauthenticated: "credentials",
  session_source_conflict: "HTTP headers, MCP _meta",
  api_key_revoked: "credentials",
  login_session_ended: "credentials",
  user_suspended: "account",
  not_a_member: "account",
  org_selection_required: "account",
  org_suspended: "account",
  membership_suspended: "account",
  session_not_found: "binding",
  session_forbidden: "binding",
  session_revoked: "binding",
  session_expired: "binding",
  session_claimed: "registration",
  dashboard_session_named: "HTTP headers, registration",
  mcp_binding_mismatch: "MCP session",
} as const satisfies Partial<Record<ErrorCode, string>>;

/** Every row of the refusal table: the causes above, then each single-cause code with its message. */
export function refusalTable(): Array<{ cause: string; where: string; code: ErrorCode; status: number; message: string }> {
  const rows: Array<{ cause: string; where: string; code: ErrorCode; status: number; message: string }> = Object.entries(IDENTITY_REFUSALS).map(([cause, r]) => ({
    cause,
    where: r.where,
    code: r.code,
    status: ERRORS[r.code].status,
    message: r.message,
  }));
  for (const [code, where] of Object.entries(SINGLE_CAUSE_CODES) as Array<[keyof typeof SINGLE_CAUSE_CODES, string]>) {
    rows.push({ cause: code, where, code, status: ERRORS[code].status, message: ERRORS[code].message });
  }
  return rows;
}

/** A markdown cell: `&`, `<`, `>` escaped (a renderer would take `<API key>` for a tag), and `|`. */
const cell = (s: string | number) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "\\|");

/** The refusal table as docs/identity.md holds it (its test compares the two). */
export function refusalTableMarkdown(): string {
  const head = ["| cause | where | code | status | message |", "|---|---|---|---|---|"];
  return [...head, ...refusalTable().map((r) => `| \`${r.cause}\` | ${cell(r.where)} | \`${r.code}\` | ${r.status} | ${cell(r.message)} |`)].join("\n");
}

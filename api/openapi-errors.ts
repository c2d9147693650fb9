/**
 * Which error codes a route can answer with, for the OpenAPI document: what
 * every request can meet on its way (the boundary, the body parser, CSRF, a
 * store that is down), what its auth kind refuses (core/authorize-rules.ts's
 * precedence: the credential, the account, the binding, the repository), what
 * a raw body or a rate limit refuses, and what the operation itself declares
 * (`errors`). Grouped by their HTTP status (core/errors.ts), each status is
 * one documented response whose description names its codes.
 */
import { ERRORS, type ErrorCode } from "../core/errors";
import { authOf, type HttpBinding, type Operation } from "../ops/operation";

/** Any request: a path or query or body that fails the boundary rule or the schema; a store that is down. */
const ANY: ErrorCode[] = ["validation_failed", "internal", "unavailable", "dependency_unavailable"];
/** A request that may carry a body (POST, DELETE): its type, its size; a signed-in browser's CSRF check. */
const WITH_BODY: ErrorCode[] = ["unsupported_media_type", "payload_too_large", "csrf_refused"];
/** The credential and the account (authorize-rules steps 1 and 2). */
const CREDENTIALS: ErrorCode[] = [
  "unauthenticated",
  "invalid_credentials",
  "api_key_revoked",
  "login_session_ended",
  "user_suspended",
  "not_a_member",
  "org_selection_required",
  "org_suspended",
  "membership_suspended",
];
/** The execution session (step 0 and step 3; a dashboard ID named in the headers). */
const SESSION: ErrorCode[] = ["invalid_session_header", "session_not_found", "session_forbidden", "session_revoked", "session_expired", "dashboard_session_named"];
/** The repository (step 4). */
const REPOSITORY: ErrorCode[] = ["repo_not_found", "repo_permission_denied"];
/** A raw archive body (api/raw-body.ts): its type, uploads turned off, its size, an archive that cannot be read. */
const ARCHIVE: ErrorCode[] = ["unsupported_archive", "forbidden", "payload_too_large", "invalid_archive", "limit_exceeded"];

/** Every code the route can answer with, in the table's order. */
export function errorCodesOf(op: Operation, b: HttpBinding): ErrorCode[] {
  const codes = new Set<ErrorCode>(ANY);
  const add = (list: readonly ErrorCode[]) => list.forEach((c) => codes.add(c));
  if (b.method !== "get") add(WITH_BODY);
  const kind = authOf(op);
  if (kind !== "none") add(CREDENTIALS);
  if (kind === "execution") add(SESSION);
  if (kind === "platform_admin" || kind === "local_admin") add(["platform_admin_required"]);
  if (op.level) add(REPOSITORY);
  if (b.raw) add(ARCHIVE);
  if (op.rateLimited) add(["rate_limited"]);
  add(op.errors ?? []);
  return (Object.keys(ERRORS) as ErrorCode[]).filter((c) => codes.has(c));
}

/** The codes grouped by their status: `{"400": [...], "401": [...]}`. */
export function errorStatusesOf(op: Operation, b: HttpBinding): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op, b)) {
    const status = ERRORS[code].status;
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return new Map([...out].sort(([a], [c]) => a - c));
}

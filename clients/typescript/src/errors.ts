/**
 * The one error the client throws. `code` is the platform's stable code from
 * the `{error: {code, message, details}}` body (core/errors.ts), or one of the
 * client's own codes when no platform answer exists. The message is the
 * server's fixed text for that code, or fixed text of ours: it never carries
 * the API key, the session ID or anything the caller sent.
 */
import type { PlatformErrorCode } from "./types";

/** Failures that happen before or instead of a platform answer. */
export type ClientErrorCode =
  /** The server could not be reached (DNS, refused connection, reset). */
  | "unreachable"
  /** A response that is not the platform's JSON (a proxy's HTML page, a truncated body). */
  | "unexpected_response"
  /** waitForJob's timeoutMs passed before the job ended. */
  | "wait_timeout"
  /** The caller's AbortSignal fired. */
  | "aborted";

export type ErrorCode = PlatformErrorCode | ClientErrorCode;

export class CodeSynapseError extends Error {
  override readonly name = "CodeSynapseError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The platform's safe structured details (limit names, field paths). */
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(`${message} (${code})`, options);
  }
}

/** The platform error a response body carries, or an `unexpected_response` naming only the status. */
export function fromResponse(status: number, body: unknown): CodeSynapseError {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (e && typeof e.code === "string" && typeof e.message === "string") {
    const details = e.details && typeof e.details === "object" ? (e.details as Record<string, unknown>) : undefined;
    return new CodeSynapseError(e.code as PlatformErrorCode, e.message, status, details);
  }
  return new CodeSynapseError("unexpected_response", `The server answered HTTP ${status} without a CodeSynapse error body.`, status);
}

/** A thrown fetch failure as the client's error: the caller's abort, or an unreachable server. */
export function fromThrown(err: unknown, signal: AbortSignal | undefined): CodeSynapseError {
  if (err instanceof CodeSynapseError) return err;
  if (signal?.aborted) return new CodeSynapseError("aborted", "The call was aborted.", undefined, undefined, { cause: signal.reason });
  if (err instanceof SyntaxError) return new CodeSynapseError("unexpected_response", "The server's answer is not valid JSON.", undefined, undefined, { cause: err });
  return new CodeSynapseError("unreachable", "The CodeSynapse server could not be reached.", undefined, undefined, { cause: err });
}

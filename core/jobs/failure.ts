/**
 * Why a job failed, in words: the sentence stored beside a job's `error_code` (jobs.error_message)
 * and shown by the job API, the MCP job tools and the operators' jobs page.
 *
 * Input: the code the job ended with and, when there is one, the error a handler or recheck threw.
 * Output: one sentence that is safe to show to the job's owner and to operators:
 *   - an AppError's own message when the code is ours (core/errors.ts: fixed text chosen where it is
 *     thrown, never a rejected ID, token, secret or user text) and it passes the checks below;
 *   - otherwise the fixed sentence of the code (ERRORS, or JOB_FAILURES for the codes only jobs
 *     end with). An unexpected error's own message (a driver's, a library's) is never used: it can
 *     quote anything, so it stays in the server log.
 * The checks are a second line behind the rule at the throw site: a message that the redaction table
 * would change, that names something ID-shaped or that is longer than MAX_MESSAGE_CHARS falls back
 * to the code's sentence.
 */
import { AppError, ERRORS } from "../errors";
import { redactText } from "../redact";

const MAX_MESSAGE_CHARS = 300;

/** Codes only the job system ends a job with (they are not HTTP errors). */
export const JOB_FAILURES: Record<string, string> = {
  handler_failed: "The job's handler failed with an unexpected error; the server log has the details under this job's id.",
  lease_expired: "The worker running it stopped renewing its lease (it stopped, crashed or lost the database), so the attempt was taken back.",
  interrupted: "It was interrupted when its worker stopped; this kind is never restarted, so it ended without running again.",
  unknown_kind: "No worker that claimed it has a handler for this job kind.",
  invalid_params: "Its stored parameters do not match what the job kind accepts.",
  canceled: "It was canceled.",
};

/** Anything that looks like one of our IDs (org_…, job_…, upl_…), a UUID or a long hex or base64 run: not shown. */
const ID_SHAPED = /\b[a-z]{2,8}_[A-Za-z0-9]{6,}\b|[0-9a-f]{8}-[0-9a-f]{4}-|[A-Fa-f0-9]{24,}|[A-Za-z0-9+/_-]{40,}/;

/** The fixed sentence of a code, or a generic one for a code neither table knows. */
export function codeMessage(code: string): string {
  return JOB_FAILURES[code] ?? (ERRORS as Record<string, { message: string }>)[code]?.message ?? "The job ended with this error code.";
}

/** Whether a message may be shown as it is (see the file comment). */
export function isShowable(message: string): boolean {
  return message.length > 0 && message.length <= MAX_MESSAGE_CHARS && redactText(message).found.length === 0 && !ID_SHAPED.test(message);
}

/** The sentence for a job that ended with `code`, thrown as `err` (when there was an error object). */
export function failureMessage(code: string, err?: unknown): string {
  if (err instanceof AppError && err.code === code && code !== "internal" && isShowable(err.message)) return err.message;
  return codeMessage(code);
}

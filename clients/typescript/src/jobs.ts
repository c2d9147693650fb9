/**
 * Jobs: submit, read, wait, and snapshot uploads.
 *
 * TODO(catalog): the job routes are not catalog operations on this branch yet.
 * Once ops/catalog.ts declares them and `npm run client:generate` has run,
 * `JobView`, `JobStatus` and the three routes below become `Output<"…">` and
 * `client.call("…")`, and this file keeps only `waitForJob`.
 */
import type { CallOptions, CodeSynapseClient, RouteSpec } from "./client";
import { CodeSynapseError } from "./errors";

// TODO(catalog): Output<the job read operation>["status"].
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "canceled" | "abandoned" | "refused";
export const TERMINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "canceled", "abandoned", "refused"];

// TODO(catalog): Output<the job read operation>.
export interface JobView {
  id: string;
  kind: string;
  pool: string;
  status: JobStatus;
  repo_id: string | null;
  params: unknown;
  result: unknown;
  error_code: string | null;
  attempts: number;
  max_attempts: number;
  cancel_requested: boolean;
  progress: { done: number; total: number } | null;
  created_at: string;
  run_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The submission routes under /api/v1/repos/{repo}/… and what each starts. */
export type JobSubmission = "ingest" | "ai-tasks" | "fix-jobs" | "embeddings/refresh";

export interface UploadInfo {
  upload_id: string;
  format: string;
  size: number;
  sha256: string;
  expires_at: string;
}

// TODO(catalog): the job read route.
const READ_JOB: RouteSpec = { method: "get", path: "/api/v1/jobs/{id}", pathParams: ["id"], body: false };
// TODO(catalog): the upload route.
const UPLOAD: RouteSpec = { method: "post", path: "/api/v1/repos/{repo}/uploads", pathParams: ["repo"], body: false };

/** GET /api/v1/jobs/{id}; `waitMs` (≤ 30 s) lets the server hold the answer until the job ends. */
export async function readJob(c: CodeSynapseClient, id: string, opts: CallOptions & { waitMs?: number } = {}): Promise<JobView> {
  const { waitMs, ...call } = opts;
  return (await c.request(READ_JOB, { id, ...(waitMs ? { wait: waitMs } : {}) }, call)) as JobView;
}

/** POST /api/v1/repos/{repo}/{submission} → the new (or, with the same idempotency key, the earlier) job's id. */
export async function submitJob(
  c: CodeSynapseClient,
  submission: JobSubmission,
  repo: string,
  params: Record<string, unknown>,
  opts: CallOptions & { idempotencyKey?: string } = {},
): Promise<{ job_id: string }> {
  // TODO(catalog): one operation per submission.
  const route: RouteSpec = { method: "post", path: `/api/v1/repos/{repo}/${submission}`, pathParams: ["repo"], body: true };
  const { idempotencyKey, ...call } = opts;
  const headers = { ...call.headers, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) };
  return (await c.request(route, { ...params, repo }, { ...call, headers })) as { job_id: string };
}

/** POST /api/v1/repos/{repo}/uploads: a tar, tar.gz or zip snapshot for a later `submitJob("ingest", repo, {upload_id})`. */
export async function uploadSnapshot(c: CodeSynapseClient, repo: string, archive: Uint8Array, opts: CallOptions = {}): Promise<UploadInfo> {
  return (await c.request(UPLOAD, { repo }, { ...opts, raw: archive })) as UploadInfo;
}

/** The longest the server holds one read (JOB_WAIT_MAX_MS is 30 s); a little under, so proxies see traffic. */
const LONG_POLL_MS = 25_000;

export interface WaitOptions {
  /** Give up (`wait_timeout`) after this long; 10 minutes by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Resolves with the job once its status is terminal (succeeded, failed, canceled, abandoned,
 * refused): it does not throw for a failed job, look at `status` and `error_code`. Each read
 * long-polls (`?wait=`), so the server answers the moment the job ends; between reads that
 * came back early, a backoff from 100 ms up to 2 s.
 */
export async function waitForJob(c: CodeSynapseClient, id: string, opts: WaitOptions = {}): Promise<JobView> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  let pause = 100;
  for (;;) {
    if (opts.signal?.aborted) throw new CodeSynapseError("aborted", "The wait was aborted.", undefined, undefined, { cause: opts.signal.reason });
    const left = deadline - Date.now();
    const job = await readJob(c, id, { waitMs: Math.max(0, Math.min(left, LONG_POLL_MS)), ...(opts.signal ? { signal: opts.signal } : {}) });
    if (TERMINAL_STATUSES.includes(job.status)) return job;
    if (Date.now() >= deadline) throw new CodeSynapseError("wait_timeout", "The job did not end before the wait's timeout.");
    await sleep(Math.min(pause, deadline - Date.now()), opts.signal);
    pause = Math.min(pause * 2, 2_000);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}

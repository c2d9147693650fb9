/**
 * Jobs: submit, read, wait, and snapshot uploads — the catalog's job and upload
 * operations (typed from the generated document), plus `waitForJob`.
 */
import type { CallOptions, CodeSynapseClient } from "./client";
import { CodeSynapseError } from "./errors";
import { ROUTES } from "./generated/api";
import type { Output } from "./types";

/** A job as `GET /api/v1/jobs/{id}` (operation `jobs.get`, MCP `get_job`) shows it. */
export type JobView = Output<"jobs.get">;
export type JobStatus = JobView["status"];
export const TERMINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "canceled", "abandoned", "refused"];

/** The submission routes under /api/v1/repos/{repo}/…, and the catalog operation each is. */
const SUBMISSIONS = {
  ingest: "jobs.submit_ingest",
  "ai-tasks": "jobs.submit_ai_task",
  "fix-jobs": "jobs.submit_fix",
  "embeddings/refresh": "jobs.submit_embedding_refresh",
} as const;
export type JobSubmission = keyof typeof SUBMISSIONS;

export type UploadInfo = Output<"uploads.create">;

/** `jobs.get`; `waitMs` (≤ 30 s) lets the server hold the answer until the job ends. */
export async function readJob(c: CodeSynapseClient, id: string, opts: CallOptions & { waitMs?: number } = {}): Promise<JobView> {
  const { waitMs, ...call } = opts;
  return c.call("jobs.get", { id, ...(waitMs ? { wait: waitMs } : {}) }, call);
}

/**
 * A submission (`jobs.submit_*`) → the new (or, with the same idempotency key, the earlier)
 * job's id. The key travels as the Idempotency-Key header, as the catalog binds it.
 */
export async function submitJob(
  c: CodeSynapseClient,
  submission: JobSubmission,
  repo: string,
  params: Record<string, unknown>,
  opts: CallOptions & { idempotencyKey?: string } = {},
): Promise<Output<(typeof SUBMISSIONS)[JobSubmission]>> {
  const { idempotencyKey, ...call } = opts;
  const headers = { ...call.headers, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) };
  return (await c.request(ROUTES[SUBMISSIONS[submission]], { ...params, repo }, { ...call, headers })) as Output<(typeof SUBMISSIONS)[JobSubmission]>;
}

/** `uploads.create`: a tar, tar.gz or zip snapshot for a later `submitJob("ingest", repo, {upload_id})`. */
export async function uploadSnapshot(c: CodeSynapseClient, repo: string, archive: Uint8Array, opts: CallOptions = {}): Promise<UploadInfo> {
  return (await c.request(ROUTES["uploads.create"], { repo }, { ...opts, raw: archive })) as UploadInfo;
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

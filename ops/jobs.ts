/**
 * Job operations (HTTP-5, MCP-1): submit ingest, AI task, fix job and
 * embedding refresh (each 202 `{job_id}`, needing its kind's repository
 * permission), and the caller's own jobs: read (with an optional bounded wait
 * for the end), list, cancel and a Server-Sent Events stream of status
 * changes. Every read is restricted to the requesting execution identity
 * (same organisation, user and primary session): any other job, including one
 * of another session of the same user, is `job_not_found`.
 *
 * Idempotency (queues/idempotency.ts): the `Idempotency-Key` header (the
 * tools' `idempotency_key`) makes a retried submission answer with the job the
 * first one created, for 24 h (`Idempotent-Replayed: true`; the tools:
 * `replayed: true`); the same key with another body is 409
 * `idempotency_key_reused`; a malformed key is 400 `idempotency_key_invalid`.
 */
import { z } from "zod";
import { idString } from "../core/boundary";
import { AppError } from "../core/errors";
import { AI_JOB } from "../core/jobs/ai";
import { EMBEDDING_JOB } from "../core/jobs/embedding";
import { FIX_JOB } from "../core/jobs/fix";
import { INGEST_JOB } from "../core/jobs/ingest";
import type { RepoJobKind } from "../core/jobs/kind";
import { IDEMPOTENCY_KEY_MAX_CHARS, JOB_WAIT_MAX_MS, MAX_HEADER_INPUT_CHARS, MAX_JOB_LIST } from "../core/limits";
import { signalCancel } from "../queues/cancel-signals";
import { IDEMPOTENCY_HEADER_PATTERN, parseIdempotencyKey } from "../queues/idempotency";
import { isTerminal } from "../queues/job-watch";
import { jobIdOf, ownJob, readJob } from "../queues/read-job";
import { cancelJob } from "../queues/sql/cancelJob";
import { listJobs } from "../queues/sql/listJobs";
import { submitJobOnce } from "../queues/submit";
import { jobEventsOf, statusEvents } from "./job-events";
import { JOB_STATUSES, jobViews, jobViewSchema, viewJob } from "./job-view";
import { defineOperation, WithStatus, type OpCall, type Operation } from "./operation";
import { repoRef } from "./schemas";

const REPO = "/api/v1/repos/:repo";
/** The job's path: `:id` on the wire (as it always was, and as logs and metrics label it), `job_id` in the input (as the tools take it). */
const JOB = "/api/v1/jobs/:id";
const JOB_ID = { job_id: "id" };

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";

const idempotencyKey = z
  .string()
  .max(MAX_HEADER_INPUT_CHARS)
  // Checked by parseIdempotencyKey (400 idempotency_key_invalid, not validation_failed); the document states the shape.
  .meta({ minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_CHARS + 2, pattern: IDEMPOTENCY_HEADER_PATTERN })
  .optional()
  .describe(
    "Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = - (a UUID is ideal). Retrying a call with the same key within 24 h " +
      "returns the job the first call created ({job_id, replayed: true}) instead of queuing another; the same key with other arguments " +
      "is refused (idempotency_key_reused).",
  );

const submitted = z.object({ job_id: z.string(), replayed: z.literal(true).optional() });
const jobId = idString().describe('The job id returned at submission ("job_…").');

/** The kind's rules across fields (exactly one source; a question needs its text), on the operation's input. */
function kindRules<P>(kind: RepoJobKind<P>) {
  const fields = Object.keys((kind.params as unknown as z.ZodObject).shape);
  return (input: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const r = kind.params.safeParse(Object.fromEntries(Object.entries(input).filter(([k]) => fields.includes(k))));
    if (!r.success) for (const issue of r.error.issues) if (issue.code === "custom") ctx.addIssue({ ...issue });
  };
}

interface SubmitSpec {
  name: string;
  title: string;
  description: string;
  path: string;
  tool?: string;
}

/** A submit operation of a kind: its parameters are its input, beside `repo` and the idempotency key. */
function submitOperation<P>(kind: RepoJobKind<P>, spec: SubmitSpec): Operation {
  return defineOperation({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    auth: "execution",
    input: { repo: repoRef, ...(kind.params as unknown as z.ZodObject).shape, idempotency_key: idempotencyKey },
    output: submitted,
    level: kind.repoLevel,
    http: [
      {
        method: "post",
        path: `${REPO}${spec.path}`,
        status: 202,
        fromHeaders: { idempotency_key: IDEMPOTENCY_HEADER },
        toHeaders: { replayed: REPLAYED_HEADER },
      },
    ],
    ...(spec.tool ? { mcp: { tool: spec.tool, task: true } } : {}),
    errors: ["idempotency_key_invalid", "idempotency_key_reused", "limit_exceeded", "conflict", "invalid_identity", "forbidden", "upload_not_found"],
    refine: kindRules(kind),
    ...(kind.paramsRules ? { inputRules: kind.paramsRules } : {}),
    async run(call, { repo: _repo, idempotency_key, ...params }) {
      const key = parseIdempotencyKey(idempotency_key);
      const jobs = call.services.jobs;
      if (!jobs || !jobs.registry.get(kind.kind)) throw new AppError("unavailable", { message: "This job kind is not available on this server." });
      const repoId = call.repo!.repoId;
      const { stores, clock, config } = call.services;
      await kind.checkSubmit?.(params as P, { config, uploads: stores.uploads, identity: call.auth.identity, repoId, now: clock.now() });
      const { row, replayed } = await submitJobOnce(
        jobs,
        call.auth.identity,
        call.principal,
        { kind: kind.kind, params, repo: repoId, ...(key !== undefined ? { idempotencyKey: key } : {}) },
        { earlier: call.read },
      );
      return replayed ? { job_id: row.id, replayed: true as const } : { job_id: row.id };
    },
  }) as Operation;
}

const WAIT_FOR_IT = "Returns {job_id}; wait for it with get_job (wait_ms), GET /api/v1/jobs/{id}?wait= or the job's event stream.";

export const submitIngest = submitOperation(INGEST_JOB, {
  name: "jobs.submit_ingest",
  title: "Ingest a repository snapshot",
  description:
    "Queues an ingest of a repository snapshot into the repository's code graph (files and symbols as nodes, contains/imports edges), " +
    "then an embedding refresh. Give exactly one of `path` (a directory under the server's allowed roots), `git_url` (an allowed host) or " +
    "`upload_id` (an archive this session uploaded with POST /api/v1/repos/{repo}/uploads). " +
    `Needs repository write permission. ${WAIT_FOR_IT}`,
  path: "/ingest",
  tool: "submit_ingest",
});

export const submitAiTask = submitOperation(AI_JOB, {
  name: "jobs.submit_ai_task",
  title: "Ask about a repository",
  description:
    'Queues an AI task over a repository: `task: "question"` with `question`, or `task: "summary"`. It retrieves from the repository\'s ' +
    `memory and this thread's session memory and answers through the configured model. Needs read permission. ${WAIT_FOR_IT}`,
  path: "/ai-tasks",
  tool: "submit_ai_task",
});

export const submitFixJob = submitOperation(FIX_JOB, {
  name: "jobs.submit_fix",
  title: "Propose a fix",
  description:
    "Queues a fix job: a patch proposal (unified diff) for the described problem in an ingested snapshot, checked with git apply --check " +
    `and never applied. Never restarted: an interrupted fix job ends abandoned. Needs write permission. ${WAIT_FOR_IT}`,
  path: "/fix-jobs",
  tool: "submit_fix_job",
});

export const submitEmbeddingRefresh = submitOperation(EMBEDDING_JOB, {
  name: "jobs.submit_embedding_refresh",
  title: "Refresh repository embeddings",
  description: `Queues an embedding refresh of the repository's durable nodes that lack a vector, in bounded batches. Needs write permission. ${WAIT_FOR_IT}`,
  path: "/embeddings/refresh",
  tool: "submit_embedding_refresh",
});

const watcherOf = (call: OpCall) => () => jobEventsOf(call.services).watcher;

export const getJobStatus = defineOperation({
  name: "jobs.get",
  title: "Job status",
  description:
    "Returns a job this chat thread submitted: {id, kind, pool, status (queued|running|succeeded|failed|canceled|abandoned|refused), " +
    "repo_id, params, result, error_code, message (why, in words, beside error_code), attempts, max_attempts, cancel_requested, progress ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at, " +
    "follow_ups ([{job_id, kind, status}]: the jobs its run started, such as an ingest's embedding jobs), recall (for a succeeded ingest or " +
    'embedding job: "complete" once every node of the repository is embedded, else "partial"; null otherwise)}. Ask questions once an ingest\'s recall is complete. ' +
    `Jobs of other threads or users are not visible (job_not_found). With \`wait_ms\` (at most ${JOB_WAIT_MAX_MS}) it waits for the job to end ` +
    "and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or with the current status when the wait runs out.",
  errors: ["job_not_found"],
  input: {
    job_id: jobId,
    wait_ms: z.number().int().min(0).max(JOB_WAIT_MAX_MS).optional().describe(`Milliseconds to wait for the job to end, 0 to ${JOB_WAIT_MAX_MS} (default 0: answer at once).`),
  },
  output: jobViewSchema,
  http: [{ method: "get", path: JOB, rename: { ...JOB_ID, wait_ms: "wait" } }],
  mcp: { tool: "get_job", readOnly: true },
  run: async (call, input) =>
    viewJob(call.services, await readJob(call.services.db, watcherOf(call), call.auth.identity, input.job_id, { waitMs: input.wait_ms, signal: call.signal })),
});

export const listOwnJobs = defineOperation({
  name: "jobs.list",
  title: "List this thread's jobs",
  description: "Lists the jobs this chat thread submitted, newest first: {jobs: [job], next_before}; pass next_before as `before` for the next page.",
  input: {
    status: z.enum(JOB_STATUSES).optional().describe("Only jobs in this status."),
    limit: z.number().int().min(1).max(MAX_JOB_LIST).default(20).describe(`At most this many jobs (1-${MAX_JOB_LIST}, default 20).`),
    before: z.iso.datetime({ offset: true }).optional().describe("Only jobs created before this time (the previous page's next_before)."),
  },
  output: z.object({ jobs: z.array(jobViewSchema), next_before: z.string().nullable() }),
  http: [{ method: "get", path: "/api/v1/jobs" }],
  mcp: { tool: "list_jobs", readOnly: true },
  async run(call, q) {
    const rows = await listJobs(call.services.db, call.auth.identity, { limit: q.limit, ...(q.status ? { status: q.status } : {}), ...(q.before ? { before: new Date(q.before) } : {}) });
    const last = rows.at(-1);
    return { jobs: await jobViews(call.services, rows), next_before: rows.length === q.limit && last ? last.created_at.toISOString() : null };
  },
});

export const cancelOwnJob = defineOperation({
  name: "jobs.cancel",
  title: "Cancel a job",
  description:
    "Cancels a job of this chat thread: a queued one ends canceled at once, a running one is asked to stop (cancel_requested); answers 202 " +
    "with the job. A job that has already finished is left as it is: 200 with the job.",
  errors: ["job_not_found"],
  input: { job_id: jobId },
  output: jobViewSchema,
  http: [{ method: "post", path: `${JOB}/cancel`, rename: JOB_ID, status: 202, otherStatus: [200] }],
  mcp: { tool: "cancel_job", destructive: true, idempotent: true },
  async run(call, input) {
    const { db, clock } = call.services;
    const identity = call.auth.identity;
    const id = jobIdOf(input.job_id);
    const canceled = await cancelJob(db, identity, id, clock.now());
    if (!canceled) return new WithStatus(200, await viewJob(call.services, await ownJob(db, identity, id))); // already finished: nothing to cancel
    // A handler running in this process stops at once; elsewhere the worker's cancel watch sees the row.
    if (canceled.status === "running") signalCancel(id);
    return viewJob(call.services, canceled);
  },
});

export const jobEvents = defineOperation({
  name: "jobs.events",
  title: "Job status events",
  description:
    "A Server-Sent Events stream of one job of this chat thread: its current status first (`event: status`, data = the job as GET " +
    "/api/v1/jobs/{id} answers it), then each change, and `event: end` after a terminal status. A reconnect (Last-Event-ID set) to a job " +
    "that has already ended gets 204, which tells EventSource to stop. A stream lives a bounded time; the client reconnects.",
  errors: ["job_not_found"],
  input: {
    job_id: jobId,
    last_event_id: z.string().max(MAX_HEADER_INPUT_CHARS).optional().describe("Sent by EventSource on a reconnect."),
  },
  output: null,
  http: [
    {
      method: "get",
      path: `${JOB}/events`,
      rename: JOB_ID,
      stream: true,
      fromHeaders: { last_event_id: "last-event-id" },
      events: { status: jobViewSchema.describe("The job, as GET /api/v1/jobs/{id} answers it."), end: z.object({ status: z.enum(JOB_STATUSES) }).describe("After a terminal status: nothing more will come.") },
    },
  ],
  async run(call, input) {
    const job = await ownJob(call.services.db, call.auth.identity, input.job_id);
    if (input.last_event_id !== undefined && isTerminal(job)) return null;
    const ev = jobEventsOf(call.services);
    return { events: statusEvents(call.services, ev.watcher, job, call.signal), heartbeatMs: ev.heartbeatMs, maxMs: ev.maxStreamMs };
  },
});

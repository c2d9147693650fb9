/**
 * What a caller sees of its own job (REST, the get_job tool, MCP tasks, event streams alike): no
 * lease token, no principal ids. With it, what followed from the job (docs/jobs.md "Follow-up
 * jobs"): the follow-up jobs its run started (an ingest's embedding jobs, newest MAX_JOB_FOLLOW_UPS)
 * and, for a succeeded job that builds recall (ingest, embedding), whether its repository's recall
 * is complete now.
 */
import { z } from "zod";
import { EMBEDDING_KIND } from "../core/jobs/embedding";
import { INGEST_KIND } from "../core/jobs/ingest";
import { POOLS } from "../core/jobs/kind";
import { codeMessage } from "../core/jobs/failure";
import { MAX_JOB_FOLLOW_UPS } from "../core/limits";
import type { Logger } from "../core/log";
import type { MemoryServices } from "../core/memory/services";
import type { Db } from "../db/schema";
import type { JobRow } from "../queues/jobs";
import { RECALL_STATES, recallOf, type RecallState } from "../queues/recall";
import { followUpsOf, type FollowUp } from "../queues/sql/followUps";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "canceled", "abandoned", "refused"] as const;

export const followUpSchema = z.object({
  job_id: z.string().describe("The follow-up job's id: read it like any job of this thread."),
  kind: z.string(),
  status: z.enum(JOB_STATUSES),
});

export const jobViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  pool: z.enum(POOLS),
  status: z.enum(JOB_STATUSES),
  repo_id: z.string().nullable(),
  params: z.unknown(),
  result: z.unknown().describe("The kind's result once succeeded, else null."),
  error_code: z.string().nullable(),
  message: z
    .string()
    .nullable()
    .describe("Why, in words, beside error_code (null while there is no error code): a fixed sentence that never quotes a secret, a token, your input or an ID."),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  cancel_requested: z.boolean(),
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable().describe("Files done of total for ingest, else null."),
  created_at: z.string(),
  run_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  follow_ups: z
    .array(followUpSchema)
    .describe(
      `The jobs this job's run started, oldest first (the newest ${MAX_JOB_FOLLOW_UPS}): an ingest's embedding jobs, each batch's next one. ` +
        "Empty for a job that started none (or has not finished yet: follow-ups start as it succeeds).",
    ),
  recall: z
    .enum(RECALL_STATES)
    .nullable()
    .describe(
      "For a succeeded ingest or embedding job: whether its repository's recall is complete now (every node embedded for the current " +
        "model) or partial (embeddings still being built, or a follow-up failed: answers rank some code by keywords only). Null for other jobs, " +
        "and while the repository's store cannot be read.",
    ),
});

export type JobView = z.infer<typeof jobViewSchema>;

/** What follows from a job, read beside its row: its follow-ups and its repository's recall. */
export interface JobSequel {
  follow_ups: FollowUp[];
  recall: RecallState | null;
}

/** Where a view reads what follows from a job: the jobs table, and repository memory for the recall. */
export interface JobViewHost {
  db: Db;
  memory?: MemoryServices | undefined;
  logger?: Logger | undefined;
}

const BUILDS_RECALL: ReadonlySet<string> = new Set([INGEST_KIND, EMBEDDING_KIND]);

/** The views of rows as the caller sees them: one follow-up read for all, one recall read per repository. */
export async function jobViews(host: JobViewHost, rows: readonly JobRow[]): Promise<JobView[]> {
  const followUps = await followUpsOf(host.db, rows.map((r) => r.id), MAX_JOB_FOLLOW_UPS);
  const repos = new Map<string, Promise<RecallState | null>>();
  const recall = (r: JobRow): Promise<RecallState | null> => {
    const repository = host.memory?.repository;
    if (!repository || r.repo_id === null || r.status !== "succeeded" || !BUILDS_RECALL.has(r.kind)) return Promise.resolve(null);
    let p = repos.get(r.repo_id);
    if (!p) repos.set(r.repo_id, (p = readRecall(host, repository, r.repo_id)));
    return p;
  };
  return Promise.all(rows.map(async (r) => jobView(r, { follow_ups: followUps.get(r.id) ?? [], recall: await recall(r) })));
}

/** A repository store that cannot answer now (an outage) does not fail the job read: recall is unknown (null). */
async function readRecall(host: JobViewHost, repository: NonNullable<JobViewHost["memory"]>["repository"], repoId: string): Promise<RecallState | null> {
  try {
    return await recallOf(repository, repoId);
  } catch (err) {
    host.logger?.warn({ code: "recall_state_unavailable", err: err instanceof Error ? err.name : typeof err }, "the repository's recall could not be read");
    return null;
  }
}

/** One job's view (jobViews of one row). */
export async function viewJob(host: JobViewHost, row: JobRow): Promise<JobView> {
  return (await jobViews(host, [row]))[0]!;
}

/** The view of the row alone: without `sequel`, no follow-ups and no recall (jobViews reads them). */
export function jobView(j: JobRow, sequel: JobSequel = { follow_ups: [], recall: null }): JobView {
  return {
    id: j.id,
    kind: j.kind,
    pool: j.pool as JobView["pool"],
    status: j.status,
    repo_id: j.repo_id,
    params: j.params,
    result: j.result ?? null,
    error_code: j.error_code,
    message: j.error_code === null ? null : (j.error_message ?? codeMessage(j.error_code)),
    attempts: j.attempts,
    max_attempts: j.max_attempts,
    cancel_requested: j.cancel_requested_at !== null,
    progress: j.progress_total === null || j.progress_total === undefined ? null : { done: j.progress_done ?? 0, total: j.progress_total },
    created_at: j.created_at.toISOString(),
    run_at: j.run_at.toISOString(),
    started_at: j.started_at?.toISOString() ?? null,
    finished_at: j.finished_at?.toISOString() ?? null,
    follow_ups: sequel.follow_ups,
    recall: sequel.recall,
  };
}

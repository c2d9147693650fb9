/**
 * Job tools (MCP-1). `get_job` is the twin of `GET /api/v1/jobs/{id}`: the same
 * `readJob` (getJob, and the optional bounded wait for the end), restricted to the calling execution identity (same
 * organisation, user and primary session), and the same `jobView`. Any other
 * job — another user's, or another thread's of the same user — is
 * `job_not_found`.
 *
 * Submission tools (`submit_ingest`, `submit_ai_task`) call `submitJob`
 * (queues/submit.ts) with `run.identity` and `principalOf(run.caller.actor)`;
 * they are registered beside their job kinds, once those kinds have handlers.
 */
import { z } from "zod";
import { idString } from "../../../core/boundary";
import { JOB_WAIT_MAX_MS } from "../../../core/limits";
import { jobView, readJob } from "../../routes/jobs";
import type { DefineTool } from "../server";

export function registerJobTools(define: DefineTool): void {
  define(
    "get_job",
    {
      title: "Job status",
      description:
        "Returns a job this chat thread submitted: {id, kind, pool, status (queued|running|succeeded|failed|canceled|abandoned|refused), " +
        "repo_id, params, result, error_code, attempts, max_attempts, cancel_requested, progress ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at}. " +
        "Jobs of other threads or users are not visible (job_not_found). With `wait_ms` (at most 30000) it waits for the job to end " +
        "and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or with the current status when the wait runs out.",
      inputSchema: {
        job_id: idString().describe('The job id returned at submission ("job_…").'),
        wait_ms: z.number().int().min(0).max(JOB_WAIT_MAX_MS).optional().describe("Milliseconds to wait for the job to end, 0 to 30000 (default 0: answer at once)."),
      },
      readOnly: true,
    },
    async (args, run) => jobView(await readJob(run.ctx, run.identity, args.job_id, { ...(args.wait_ms ? { waitMs: args.wait_ms } : {}), signal: run.context.signal })),
  );
}

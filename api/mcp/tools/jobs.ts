/**
 * Job tools (MCP-1). `get_job` is the twin of `GET /api/v1/jobs/{id}`: the same
 * `getJob` query, restricted to the calling execution identity (same
 * organisation, user and primary session), and the same `jobView`. Any other
 * job — another user's, or another thread's of the same user — is
 * `job_not_found`.
 *
 * Submission tools (`submit_ingest`, `submit_ai_task`) call `submitJob`
 * (queues/submit.ts) with `run.identity` and `principalOf(run.caller.actor)`;
 * they are registered beside their job kinds, once those kinds have handlers.
 */
import { idString } from "../../../core/boundary";
import { AppError } from "../../../core/errors";
import { getJob } from "../../../queues/sql/getJob";
import { jobView } from "../../routes/jobs";
import type { DefineTool } from "../server";

export function registerJobTools(define: DefineTool): void {
  define(
    "get_job",
    {
      title: "Job status",
      description:
        "Returns a job this chat thread submitted: {id, kind, pool, status (queued|running|succeeded|failed|canceled|abandoned|refused), " +
        "repo_id, params, result, error_code, attempts, max_attempts, cancel_requested, progress ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at}. " +
        "Jobs of other threads or users are not visible (job_not_found).",
      inputSchema: { job_id: idString().describe('The job id returned at submission ("job_…").') },
      readOnly: true,
    },
    async (args, run) => {
      const job = await getJob(run.ctx.db, run.identity, args.job_id);
      if (!job) throw new AppError("job_not_found");
      return jobView(job);
    },
  );
}

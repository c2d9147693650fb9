/**
 * Submission tools (MCP-1): `submit_ingest` and `submit_ai_task`, the twins
 * of `POST /api/v1/repos/{repo}/ingest` and `/ai-tasks` — the same
 * `submitRepoJob` (permission, source rules, submitJob). Poll with `get_job`
 * (`wait_ms` waits for the end). `idempotency_key` is the REST routes'
 * `Idempotency-Key` header: a retried call returns the same job, `replayed: true`.
 */
import { z } from "zod";
import { idString, textString } from "../../../core/boundary";
import { AI_MAX_QUESTION_CHARS } from "../../../core/limits";
import { submitRepoJob } from "../../routes/job-submit";
import { AI_KIND } from "../../../core/jobs/ai";
import { INGEST_KIND } from "../../../core/jobs/ingest";
import { parseIdempotencyKey } from "../../../queues/idempotency";
import type { DefineTool } from "../server";

const repo = idString().describe("The repository: its id, or its name within your organisation.");
const idempotency_key = z
  .string()
  .max(1024)
  .optional()
  .describe(
    "Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = - (a UUID is ideal). Retrying a call with the same key within 24 h " +
      "returns the job the first call created ({job_id, replayed: true}) instead of queuing another; the same key with other arguments " +
      "is refused (idempotency_key_reused).",
  );

const submitted = (r: { job_id: string; replayed: boolean }) => (r.replayed ? r : { job_id: r.job_id });

export function registerJobSubmitTools(define: DefineTool): void {
  define(
    "submit_ingest",
    {
      title: "Ingest a repository snapshot",
      description:
        "Queues an ingest of a repository snapshot into the repository's code graph (files and symbols as nodes, contains/imports edges), " +
        "then an embedding refresh. Give exactly one of `path` (a directory under the server's allowed roots), `git_url` (an allowed host) or " +
        "`upload_id` (an archive this session uploaded with POST /api/v1/repos/{repo}/uploads). " +
        "Needs repository write permission. Returns {job_id}; wait for it with get_job (wait_ms).",
      inputSchema: {
        repo,
        path: idString(4096).optional(),
        git_url: idString(2048).optional(),
        ref: idString(200).optional(),
        upload_id: idString().optional(),
        idempotency_key,
      },
    },
    async ({ repo: ref, idempotency_key: key, ...params }, run) =>
      submitted(await submitRepoJob(run.ctx, run.identity, run.caller.actor, INGEST_KIND, ref, params, { idempotencyKey: parseIdempotencyKey(key) })),
  );
  define(
    "submit_ai_task",
    {
      title: "Ask about a repository",
      description:
        "Queues an AI task over a repository: `task: \"question\"` with `question`, or `task: \"summary\"`. It retrieves from the repository's " +
        "memory and this thread's session memory and answers through the configured model. Needs read permission. Returns {job_id}; wait for it with get_job (wait_ms).",
      inputSchema: {
        repo,
        task: z.enum(["question", "summary"]),
        question: textString(AI_MAX_QUESTION_CHARS).min(1).optional(),
        idempotency_key,
      },
    },
    async ({ repo: ref, idempotency_key: key, ...params }, run) =>
      submitted(await submitRepoJob(run.ctx, run.identity, run.caller.actor, AI_KIND, ref, params, { idempotencyKey: parseIdempotencyKey(key) })),
  );
}

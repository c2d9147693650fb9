/** What a caller sees of its own job (REST and MCP alike): no lease token, no principal ids. */
import { z } from "zod";
import { POOLS } from "../core/jobs/kind";
import { codeMessage } from "../core/jobs/failure";
import type { JobRow } from "../queues/jobs";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "canceled", "abandoned", "refused"] as const;

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
});

export type JobView = z.infer<typeof jobViewSchema>;

export function jobView(j: JobRow): JobView {
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
  };
}

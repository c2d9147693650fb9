/**
 * MCP Tasks (the `io.modelcontextprotocol/tasks` extension of protocol revision 2026-07-28) served
 * from the durable job rows: a task IS a job.
 *
 *   - taskId = the job id. A task is created by the submitting tools when the request's client
 *     declares the extension (api/mcp/tools/operations.ts); the handle is answered only after the
 *     job row is committed, so tasks/get on any API node finds it at once.
 *   - status: queued / running → `working` (statusMessage says which, with ingest progress and a
 *     pending cancel); succeeded, failed, abandoned, refused → `completed` with the tool's
 *     CallToolResult (success: structuredContent `{job_id, job}`; a job that did not succeed: an
 *     `isError` result `{"error": {code, message}}` with the job's error code — a tool failure,
 *     not a JSON-RPC one, so never `failed`); canceled → `cancelled`.
 *   - tasks/get reads the row through `ownJob`, the read behind get_job: a job of another primary
 *     session, user or organisation is "not found" (a JSON-RPC error with `data.code`
 *     `job_not_found`), never the task; so are ids not shaped like a job id.
 *   - tasks/cancel is the jobs.cancel operation (the same row update and in-process signal);
 *     tasks/update has nothing to answer (no job asks for input) and acknowledges a known task.
 * Tasks live as long as their job rows: across restarts and on every node. Status notifications
 * (`notifications/tasks` on `subscriptions/listen`) are api/mcp/task-listen.ts, from `taskOf`.
 */
import { ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { JOB_WATCH_POLL_MS } from "../../core/limits";
import { cancelOwnJob } from "../../ops/jobs";
import { jobViewSchema, viewJob, type JobViewHost } from "../../ops/job-view";
import type { Operation } from "../../ops/operation";
import type { JobRow } from "../../queues/jobs";
import { ownJob } from "../../queues/read-job";
import type { AppContext } from "../context";
import { principalOf } from "../execution";
import { runOperation } from "../run-operation";
import { callerOf, protocolFailure, toolFailure, toolOk, type ToolExtra } from "./server";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether an operation answers a job id, and so may answer a task instead. */
export function isSubmitting(op: Operation): boolean {
  return op.mcp?.task === true;
}

/** What a submitting tool's structured result holds once its task has completed: the job id and the job. */
export const taskResultJob = jobViewSchema.optional().describe("The job as get_job answers it; present in a completed task's result.");

type TaskStatus = "working" | "completed" | "cancelled";

function statusOf(row: JobRow): TaskStatus {
  if (row.status === "queued" || row.status === "running") return "working";
  return row.status === "canceled" ? "cancelled" : "completed";
}

function messageOf(row: JobRow): string {
  const progress = row.progress_total !== null && row.progress_total !== undefined ? ` (${row.progress_done ?? 0}/${row.progress_total} files)` : "";
  const cancel = row.cancel_requested_at !== null && row.status === "running" ? "; cancel requested" : "";
  return `job ${row.status}${progress}${cancel}`;
}

/** The task a job row is, as tasks/get answers it (DetailedTask): a completed one's result holds the job as get_job answers it. */
export async function taskOf(host: JobViewHost, row: JobRow): Promise<Record<string, unknown>> {
  const status = statusOf(row);
  const task: Record<string, unknown> = {
    taskId: row.id,
    status,
    statusMessage: messageOf(row),
    createdAt: row.created_at.toISOString(),
    lastUpdatedAt: row.updated_at.toISOString(),
    ttlMs: null,
    pollIntervalMs: JOB_WATCH_POLL_MS,
  };
  if (status === "completed") {
    task.result =
      row.status === "succeeded"
        ? toolOk({ job_id: row.id, job: await viewJob(host, row) })
        : toolFailure(new AppError("job_failed", { message: `The job ended ${row.status}.`, details: { job_id: row.id, status: row.status, error_code: row.error_code } }));
  }
  return task;
}

/** The CreateTaskResult for a job just submitted (its row is committed). */
export async function createdTask(ctx: AppContext, identity: Identity, jobId: string): Promise<Record<string, unknown>> {
  const row = await ownJob(ctx.db, identity, jobId);
  const { result: _result, ...task } = await taskOf(ctx, row);
  return { ...task, resultType: "task" };
}

const TaskParams = z.object({ taskId: z.string().max(200) }).loose();
const TaskUpdateParams = z.object({ taskId: z.string().max(200), inputResponses: z.record(z.string(), z.unknown()).optional() }).loose();
const AnyResult = z.object({}).loose();

/** tasks/get, tasks/update and tasks/cancel on a modern-era server instance. */
export function registerTaskMethods(server: McpServer, ctx: AppContext): void {
  const guarded = <P>(fn: (params: P, extra: ToolExtra) => Promise<Record<string, unknown>>) => {
    return async (params: P, extra: ToolExtra) => {
      try {
        return await fn(params, extra);
      } catch (err) {
        throw protocolFailure(err, ProtocolErrorCode.InvalidParams);
      }
    };
  };
  server.server.setRequestHandler(
    "tasks/get",
    { params: TaskParams, result: AnyResult },
    guarded(async ({ taskId }: z.infer<typeof TaskParams>, extra) => taskOf(ctx, await ownJob(ctx.db, callerOf(extra).identity, taskId))),
  );
  server.server.setRequestHandler(
    "tasks/update",
    { params: TaskUpdateParams, result: AnyResult },
    guarded(async ({ taskId }: z.infer<typeof TaskUpdateParams>, extra) => {
      await ownJob(ctx.db, callerOf(extra).identity, taskId); // a known task of this caller; no job asks for input
      return {};
    }),
  );
  server.server.setRequestHandler(
    "tasks/cancel",
    { params: TaskParams, result: AnyResult },
    guarded(async ({ taskId }: z.infer<typeof TaskParams>, extra) => {
      const caller = callerOf(extra);
      const who = { identity: caller.identity, expiresAt: caller.expiresAt, principal: principalOf(caller.actor), signal: extra.mcpReq.signal };
      await runOperation(cancelOwnJob as Operation, { job_id: taskId }, who, ctx);
      return {};
    }),
  );
}

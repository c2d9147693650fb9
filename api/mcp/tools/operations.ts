/**
 * The MCP mounter: every catalog operation (ops/catalog.ts) that runs under an execution
 * identity and has an MCP binding becomes one tool — all of them but the raw-byte upload (an
 * upload stays REST) and the Server-Sent Events stream (tasks and get_job's wait serve that).
 * Control-plane operations (`auth` other than "execution") are never tools, whatever they bind.
 *
 * A tool's arguments are the operation's whole input (then its cross-field rules), its
 * `outputSchema` the operation's output schema (an operation with no body answers `{}`), and it
 * runs the same `runOperation` as the REST routes. A request that carries one tool call names its
 * repository (`toolRepoAsk`), so the endpoint resolves identity and repository permission in one
 * statement, as REST does.
 *
 * The submitting tools (`submit_*`) answer a task handle (api/mcp/tasks.ts) when the request
 * declares the tasks extension; otherwise `{job_id}` as always.
 */
import { z } from "zod";
import { CATALOG } from "../../../ops/catalog";
import { authOf, inputSchemaOf, WithStatus, type Operation } from "../../../ops/operation";
import { principalOf, type RepoAsk } from "../../execution";
import { parseWith } from "../../http";
import { repoAskOf, runOperation } from "../../operations";
import { declaresTasks, TaskAnswer, type DefineTool } from "../server";
import { createdTask, isSubmitting, taskResultJob } from "../tasks";

/** Whether an operation is a tool: bound, run as an execution identity, JSON in and out. */
export function isTool(op: Operation): boolean {
  return op.mcp !== undefined && authOf(op) === "execution" && !(op.http ?? []).some((b) => b.raw !== undefined || b.stream === true);
}

/** The tool's outputSchema: the operation's output (an object), or `{}` for an operation with no body. */
export function outputSchemaOf(op: Operation): z.ZodType<object> {
  if (op.output === null) return z.strictObject({});
  // A submitting tool's completed task carries the job beside its id.
  if (isSubmitting(op) && op.output instanceof z.ZodObject) return op.output.extend({ job: taskResultJob });
  return op.output as z.ZodType<object>;
}

export function registerOperationTools(define: DefineTool, catalog: readonly Operation[] = CATALOG): void {
  for (const op of catalog) {
    if (!isTool(op)) continue;
    const mcp = op.mcp!;
    const schema = op.refine ? inputSchemaOf(op) : undefined;
    const annotations = {
      ...(mcp.readOnly ? { readOnlyHint: true } : { readOnlyHint: false }),
      ...(mcp.destructive && !mcp.readOnly ? { destructiveHint: true } : !mcp.readOnly ? { destructiveHint: false } : {}),
      ...(mcp.idempotent || mcp.readOnly ? { idempotentHint: true } : {}),
    };
    define(mcp.tool, { title: op.title, description: op.description, inputSchema: op.input, outputSchema: outputSchemaOf(op), annotations }, async (args, run) => {
      const input = (schema ? parseWith(schema, args, "(arguments)") : args) as Record<string, unknown>;
      const who = { identity: run.identity, expiresAt: run.caller.expiresAt, principal: principalOf(run.caller.actor), signal: run.context.signal, repo: run.caller.repo };
      const out = await runOperation(op, input, who, run.ctx);
      const value = ((out instanceof WithStatus ? out.body : out) ?? {}) as object;
      if (run.era === "modern" && isSubmitting(op) && declaresTasks(run.extra)) {
        return new TaskAnswer(await createdTask(run.ctx, run.identity, (value as { job_id: string }).job_id));
      }
      return value;
    });
  }
}

const BY_TOOL = new Map(CATALOG.flatMap((op) => (isTool(op) ? [[op.mcp!.tool, op] as const] : [])));

/** The repository a JSON-RPC batch's tools/call names, for the operation it calls (undefined: none, or not one call). */
export function toolRepoAsk(messages: readonly unknown[], catalog: ReadonlyMap<string, Operation> = BY_TOOL): RepoAsk | undefined {
  const calls = messages.filter((m): m is { method: string; params?: { name?: unknown; arguments?: { repo?: unknown } } } => (m as { method?: unknown } | null)?.method === "tools/call");
  if (calls.length !== 1) return undefined;
  const op = typeof calls[0]!.params?.name === "string" ? catalog.get(calls[0]!.params.name) : undefined;
  return op ? repoAskOf(op, calls[0]!.params?.arguments?.repo) : undefined;
}

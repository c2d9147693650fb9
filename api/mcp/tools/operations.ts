/**
 * The MCP mounter: every catalog operation (ops/catalog.ts) that runs under an execution
 * identity and has an MCP binding becomes one tool — all of them but the raw-byte upload (an
 * upload stays REST) and the Server-Sent Events stream (tasks and get_job's wait serve that).
 * Operations of the other auth kinds are never tools, whatever they bind.
 *
 * A tool call runs once through each step:
 *   1. its arguments are scanned whole with the boundary rule (core/boundary.ts) and parsed with
 *      the operation's input schema — strict, then its cross-field rules (`inputSchemaOf`), as
 *      REST bodies are; a refusal names field paths, never values;
 *   2. the caller is what the transport resolved for this HTTP request (api/mcp/server.ts
 *      `callerOf`); the body runs inside `runInExecution` with that frozen identity and the
 *      request's AbortSignal;
 *   3. `runOperation` (api/run-operation.ts), the REST routes' own, checks the repository
 *      permission, runs the operation and passes its answer through the output schema;
 *   4. the answer is JSON text plus `structuredContent` (an operation with no body answers `{}`).
 * A request that carries one tool call names its repository (`toolRepoAsk`), so the endpoint
 * resolves identity and repository permission in one statement, as REST does.
 *
 * The submitting tools (`submit_*`) answer a task handle (api/mcp/tasks.ts) when the request
 * declares the tasks extension; otherwise `{job_id}` as always.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ExecutionContext, runInExecution } from "../../../core/execution/context";
import { CATALOG } from "../../../ops/catalog";
import { authOf, inputSchemaOf, WithStatus, type Operation } from "../../../ops/operation";
import type { AppContext } from "../../context";
import { principalOf, type RepoAsk } from "../../execution";
import { parseWith } from "../../http";
import { repoAskOf, runOperation } from "../../run-operation";
import { callerOf, declaresTasks, toolFailure, toolOk, type ProtocolEra, type ToolCall } from "../server";
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

/** One tool's whole call: from the raw arguments to the result or the tool error. */
function toolCall(ctx: AppContext, era: ProtocolEra, op: Operation): ToolCall {
  const schema = inputSchemaOf(op);
  return async (raw, extra) => {
    try {
      const input = parseWith(schema, raw, "(arguments)") as Record<string, unknown>;
      const caller = callerOf(extra);
      const context = new ExecutionContext({ identity: caller.identity, signal: extra.mcpReq.signal });
      const who = { identity: caller.identity, expiresAt: caller.expiresAt, principal: principalOf(caller.actor), signal: context.signal, repo: caller.repo, read: caller.read };
      const out = await runInExecution(context, () => runOperation(op, input, who, ctx));
      const value = ((out instanceof WithStatus ? out.body : out) ?? {}) as object;
      if (era === "modern" && isSubmitting(op) && declaresTasks(extra)) {
        return await createdTask(ctx, caller.identity, (value as { job_id: string }).job_id);
      }
      return toolOk(value);
    } catch (err) {
      return toolFailure(err);
    }
  };
}

/**
 * Registers every catalog tool with the SDK (tools/list: its strict input schema, its output
 * schema, its hints) and puts its call in `calls`, which the server's tools/call handler runs.
 */
export function registerOperationTools(server: McpServer, calls: Map<string, ToolCall>, ctx: AppContext, era: ProtocolEra, catalog: readonly Operation[] = CATALOG): void {
  for (const op of catalog) {
    if (!isTool(op)) continue;
    const mcp = op.mcp!;
    const annotations = {
      ...(mcp.readOnly ? { readOnlyHint: true } : { readOnlyHint: false }),
      ...(mcp.destructive && !mcp.readOnly ? { destructiveHint: true } : !mcp.readOnly ? { destructiveHint: false } : {}),
      ...(mcp.idempotent || mcp.readOnly ? { idempotentHint: true } : {}),
      openWorldHint: false,
    };
    calls.set(mcp.tool, toolCall(ctx, era, op));
    server.registerTool(
      mcp.tool,
      { title: op.title, description: op.description, inputSchema: z.strictObject(op.input), outputSchema: outputSchemaOf(op) as z.ZodObject, annotations },
      (() => ({ content: [] })) as never,
    );
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

/**
 * The one MCP server definition (MCP-1). Transports (api/mcp/http.ts, and the
 * stdio forwarder in api/mcp/stdio.ts through it) never define tools.
 *
 * Every tool runs the same way:
 *   1. `callerFor(extra)` returns the caller the transport layer resolved for
 *      THIS JSON-RPC request (authenticate + execution headers, via
 *      api/execution.ts `resolveExecution`), or throws: no tool work without
 *      an identity (REG-9, MCP-2);
 *   2. the tool body runs inside `runInExecution` with a fresh
 *      ExecutionContext holding that frozen identity and the request's
 *      AbortSignal (canceled by the client or by the transport closing);
 *   3. a repository tool's `repo` is resolved at the level its operation
 *      needs (MCP-1a) before any store is touched — with the identity, in
 *      the admission's one statement (api/mcp/tools/operations.ts);
 *   4. the arguments are scanned whole with the boundary rule
 *      (core/boundary.ts), then checked against the tool's strict schema —
 *      the REST bodies' `parseWith`;
 *   5. results are JSON (text + structuredContent); failures are tool errors
 *      carrying the platform's stable `code` and fixed message — never a
 *      rejected ID or user text.
 * Every tool failure has that one shape (`isError: true`, structuredContent
 * `{"error": {code, message}}`): a platform refusal, arguments that fail the
 * schema (`validation_failed`, field paths only) and a name no tool has
 * (`unknown_tool`). The SDK's own tools/call handler answers the last two in
 * plain text (`MCP error -32602: …`, quoting the request), so ours replaces
 * it; the SDK still lists the tools (tools/list) from what registerTool got.
 * Every tool is a catalog operation (ops/catalog.ts), made a tool by tools/operations.ts and
 * running the very `runOperation` its REST routes run.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Actor } from "../../core/auth/authenticate";
import { AppError, coerceError } from "../../core/errors";
import { parseWith } from "../http";
import { ExecutionContext, runInExecution } from "../../core/execution/context";
import type { Identity } from "../../core/execution/identity";
import type { AppContext } from "../context";
import type { ResolvedRepo } from "../execution";
import { registerOperationTools } from "./tools/operations";

export const MCP_SERVER_NAME = "codesynapse";
export const MCP_SERVER_VERSION = "0.1.0";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the transport layer resolved for one tool call. */
export interface ToolCaller {
  readonly identity: Identity;
  readonly actor: Actor;
  readonly expiresAt: Date;
  /** The repository the request's one tool call names, resolved with the identity (api/mcp/tools/operations.ts). */
  readonly repo?: ResolvedRepo;
}

export interface McpServerDeps {
  /** The caller resolved for this request; throws an AppError when there is none. */
  callerFor(extra: ToolExtra): ToolCaller;
}

/** What a tool body is handed. */
export interface ToolRun {
  readonly ctx: AppContext;
  readonly caller: ToolCaller;
  readonly identity: Identity;
  readonly context: ExecutionContext;
}

export type ToolBody<A> = (args: A, run: ToolRun) => Promise<object>;

export interface ToolDef<S extends z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: S;
  readOnly?: boolean;
}

function ok(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

function failure(err: unknown): CallToolResult {
  const e = coerceError(err);
  const body = { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** Registers one identity-bound tool. */
export type DefineTool = <S extends z.ZodRawShape>(name: string, def: ToolDef<S>, body: ToolBody<z.infer<z.ZodObject<S>>>) => void;

export function createMcpServer(ctx: AppContext, deps: McpServerDeps): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "CodeSynapse memory and jobs for one chat thread. Every tool call runs as the execution identity " +
        "named by the X-CodeSynapse-Session headers (HTTP) or the CODESYNAPSE_SESSION_ID environment (stdio); " +
        "tool arguments never select the session.",
    },
  );

  /** Every tool by name: its whole run, from the raw arguments to the result or the tool error. */
  const tools = new Map<string, (raw: unknown, extra: ToolExtra) => Promise<CallToolResult>>();

  const define: DefineTool = (name, def, body) => {
    // Strict, like the REST bodies (HTTP-6): unknown arguments are refused, not dropped.
    const schema = z.strictObject(def.inputSchema);
    const call = async (raw: unknown, extra: ToolExtra): Promise<CallToolResult> => {
      try {
        // HTTP-6: every string passes the boundary rule (core/boundary.ts), then the schema, as REST bodies do;
        // a refusal names field paths, never values.
        const args = parseWith(schema, raw, "(arguments)");
        const caller = deps.callerFor(extra);
        const context = new ExecutionContext({ identity: caller.identity, signal: extra.signal });
        const run: ToolRun = {
          ctx,
          caller,
          identity: caller.identity,
          context,
        };
        return ok(await runInExecution(context, () => body(args as never, run)));
      } catch (err) {
        return failure(err);
      }
    };
    tools.set(name, call);
    // Registered with the SDK for tools/list; calls come through the handler below.
    server.registerTool(
      name,
      {
        title: def.title,
        description: def.description,
        inputSchema: schema,
        annotations: { readOnlyHint: def.readOnly ?? false, openWorldHint: false },
      },
      call as never,
    );
  };

  registerOperationTools(define);

  // Replaces the SDK's tools/call handler (set when McpServer was constructed with the tools capability),
  // so that no tool failure takes the SDK's plain-text path. No tool here is a task tool.
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const call = tools.get(request.params.name);
    if (!call) return failure(new AppError("unknown_tool"));
    return call(request.params.arguments, extra);
  });
  return server;
}

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
 *   3. a repository tool resolves `repo` with `authorizeRepo` at the level it
 *      needs (MCP-1a) before any store is touched;
 *   4. the arguments, already checked against the tool's strict schema, are
 *      scanned whole with the boundary rule (core/boundary.ts) — the REST
 *      bodies' scan;
 *   5. results are JSON (text + structuredContent); failures are tool errors
 *      carrying the platform's stable `code` and fixed message — never a
 *      rejected ID or user text.
 * Tool bodies call the same core/ functions as the REST routes.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Actor } from "../../core/auth/authenticate";
import { authorizeRepo, type RepoAccess } from "../../core/authorize";
import { coerceError } from "../../core/errors";
import { checkBoundary } from "../http";
import { ExecutionContext, runInExecution } from "../../core/execution/context";
import type { Identity } from "../../core/execution/identity";
import type { RepoLevel } from "../../db/schema";
import type { AppContext } from "../context";
import { registerIdentityTools } from "./tools/identity";
import { registerJobSubmitTools } from "./tools/job-submit";
import { registerJobTools } from "./tools/jobs";
import { registerMemoryTools } from "./tools/memory";

export const MCP_SERVER_NAME = "codesynapse";
export const MCP_SERVER_VERSION = "0.1.0";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the transport layer resolved for one tool call. */
export interface ToolCaller {
  readonly identity: Identity;
  readonly actor: Actor;
  readonly expiresAt: Date;
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
  /** Resolves `repo` (id or name in the caller's organisation) at `level`, or throws. */
  repo(ref: string, level: RepoLevel): Promise<RepoAccess>;
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

  const define: DefineTool = (name, def, body) => {
    server.registerTool(
      name,
      {
        title: def.title,
        description: def.description,
        // Strict, like the REST bodies (HTTP-6): unknown arguments are refused, not dropped.
        inputSchema: z.strictObject(def.inputSchema),
        annotations: { readOnlyHint: def.readOnly ?? false, openWorldHint: false },
      },
      // The SDK validated args against inputSchema before this runs.
      (async (args: unknown, extra: ToolExtra): Promise<CallToolResult> => {
        try {
          // HTTP-6: every string of the arguments passes the boundary rule (core/boundary.ts), as REST bodies do.
          checkBoundary(args);
          const caller = deps.callerFor(extra);
          const context = new ExecutionContext({ identity: caller.identity, signal: extra.signal });
          const run: ToolRun = {
            ctx,
            caller,
            identity: caller.identity,
            context,
            repo: (ref, level) => authorizeRepo(ctx.db, { orgId: caller.identity.tenant_id, userId: caller.identity.subject_id }, ref, level),
          };
          return ok(await runInExecution(context, () => body(args as never, run)));
        } catch (err) {
          return failure(err);
        }
      }) as never,
    );
  };

  registerIdentityTools(define);
  registerMemoryTools(define);
  registerJobTools(define);
  registerJobSubmitTools(define);
  return server;
}

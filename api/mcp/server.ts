/**
 * The one MCP server definition (MCP-1), on the official SDK v2 (`@modelcontextprotocol/server`).
 * Transports (api/mcp/http.ts; the stdio forwarder api/mcp/stdio.ts through it) never define
 * tools. One definition serves both protocol eras: `era` is "legacy" for the 2025 revisions
 * (initialize handshake, a sessionful transport) and "modern" for 2026-07-28 (stateless, the
 * per-request `_meta` envelope, `server/discover`).
 *
 * Every tool is a catalog operation, registered by the MCP mounter (api/mcp/tools/operations.ts):
 * its arguments parsed once with the operation's schema, its answer checked once with its output
 * schema (api/run-operation.ts). What this file gives every tool:
 *   - the caller is what the transport resolved for THIS HTTP request (authenticate + execution
 *     headers, api/execution.ts `resolveExecution`), handed in as the request's AuthInfo
 *     (`callerOf`); without one the tool refuses: no tool work without an identity (REG-9,
 *     MCP-2). The runtime's own `_meta` keys may name the thread (api/execution.ts
 *     `namedSession`); nothing the model writes (the tool arguments) selects it;
 *   - a success is JSON text plus `structuredContent` (`toolOk`); a failure is `isError: true`
 *     with structuredContent `{"error": {code, message}}` (`toolFailure`) — a platform refusal,
 *     arguments that fail the schema (`validation_failed`, field paths only) and a name no tool
 *     has (`unknown_tool`). The SDK's own tools/call handler answers the last two as plain text
 *     quoting the request, so ours replaces it; the SDK still lists the tools (tools/list) from
 *     what registerTool got.
 * Tasks (api/mcp/tasks.ts): on the modern era, a client that declares the
 * `io.modelcontextprotocol/tasks` extension gets a task handle from the submitting tools, and
 * tasks/get, tasks/update and tasks/cancel read and cancel the job rows.
 */
import { McpServer, ProtocolError, ProtocolErrorCode, type AuthInfo, type CallToolResult, type ServerContext } from "@modelcontextprotocol/server";
import type { Actor } from "../../core/auth/authenticate";
import type { EarlierRead } from "../../core/authorize";
import { AppError, coerceError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import type { AppContext } from "../context";
import type { ResolvedRepo } from "../execution";
import { registerTaskMethods, TASKS_EXTENSION } from "./tasks";
import { registerOperationTools } from "./tools/operations";

export const MCP_SERVER_NAME = "codesynapse";
export const MCP_SERVER_VERSION = "0.1.0";

export type ProtocolEra = "legacy" | "modern";
export type ToolExtra = ServerContext;

/** What the transport layer resolved for one HTTP request. */
export interface ToolCaller {
  readonly identity: Identity;
  readonly actor: Actor;
  readonly expiresAt: Date;
  /** The repository the request's one tool call names, resolved with the identity (api/mcp/tools/operations.ts). */
  readonly repo?: ResolvedRepo;
  /** That resolution's authorization read, for the tool's own checks while fresh (core/authorize.ts). */
  readonly read?: EarlierRead;
}

/** The AuthInfo a transport hands the SDK for a request whose execution it resolved; only `callerOf` reads it back. */
class CallerAuth implements AuthInfo {
  readonly token = "";
  readonly clientId = "codesynapse";
  readonly scopes: string[] = [];
  constructor(readonly caller: ToolCaller) {}
}

export function authInfoFor(caller: ToolCaller): AuthInfo {
  return new CallerAuth(caller);
}

/** The caller the transport resolved for this request, or `unauthenticated`. */
export function callerOf(extra: ToolExtra): ToolCaller {
  const auth = extra.http?.authInfo;
  if (auth instanceof CallerAuth) return auth.caller;
  throw new AppError("unauthenticated", { message: "No execution identity was resolved for this request; send the execution headers." });
}

/** Whether this request's client declared the tasks extension (2026-07-28 per-request capabilities). */
export function declaresTasks(extra: ToolExtra): boolean {
  const caps = (extra.mcpReq.envelope as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/clientCapabilities"] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return caps?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** One tool's whole call, from the raw arguments to the result (a tool error included) or a task handle. */
export type ToolCall = (raw: unknown, extra: ToolExtra) => Promise<CallToolResult | Record<string, unknown>>;

export function toolOk(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

export function toolFailure(err: unknown): CallToolResult {
  const e = coerceError(err);
  const body = { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** A protocol failure (not a tool's): a JSON-RPC error carrying the platform's stable code in `data.code`, never user text. */
export function protocolFailure(err: unknown, code: number = ProtocolErrorCode.InvalidParams): ProtocolError {
  const e = coerceError(err);
  return new ProtocolError(e.status === 401 || e.status === 403 ? -32001 : code, e.message, { code: e.code });
}

/** How long a 2026-07-28 client may reuse `tools/list`. */
export const MCP_TOOLS_LIST_TTL_MS = 300_000;

export function createMcpServer(ctx: AppContext, era: ProtocolEra = "legacy"): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      // 2026-07-28 lists are cacheable: the tool list is the catalog's, the same for every caller
      // and fixed for the life of a server version, so a client may reuse it for five minutes.
      cacheHints: { "tools/list": { ttlMs: MCP_TOOLS_LIST_TTL_MS, cacheScope: "public" } },
      instructions:
        "CodeSynapse memory and jobs for one chat thread. Every tool call runs as the execution identity " +
        "named by the X-CodeSynapse-Session headers (HTTP) or the CODESYNAPSE_SESSION_ID environment (stdio); " +
        "tool arguments never select the session.",
    },
  );

  /** Every tool by name: its whole call. */
  const tools = new Map<string, ToolCall>();
  registerOperationTools(server, tools, ctx, era);

  // Replaces the SDK's tools/call handler, so that no tool failure takes the SDK's plain-text path.
  server.server.setRequestHandler("tools/call", async (request, extra) => {
    const call = tools.get(request.params.name);
    if (!call) return toolFailure(new AppError("unknown_tool"));
    return (await call(request.params.arguments, extra)) as CallToolResult;
  });

  if (era === "modern") {
    server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
    registerTaskMethods(server, ctx);
  }
  return server;
}

/**
 * MCP over Streamable HTTP at `/mcp` (MCP-2).
 *
 * State: one entry per MCP transport session, in a map filled on
 * `onsessioninitialized` and emptied on the transport's `onclose`. Each entry
 * remembers the owner (organisation, user, primary session) it was bound to,
 * and the callers resolved for the tool calls now in flight.
 *
 * Per request, before the SDK sees it:
 *   - no `Mcp-Session-Id`: only an `initialize` POST (it creates the entry);
 *     an unknown ID is 404;
 *   - the entry is UNBOUND: a request that needs identity (any JSON-RPC
 *     request other than initialize / ping / tools/list — i.e. tools/call) or
 *     that names a session is resolved with `resolveExecution` (exactly the
 *     REST middleware's resolution: credentials, headers, binding, account
 *     state) and its (org, user, session) becomes the owner — first
 *     resolution binds;
 *   - the entry is BOUND: EVERY request on it (POST of any method, GET/SSE,
 *     resume, DELETE) is resolved again and must name the same owner; another
 *     primary session or another caller is refused (`mcp_binding_mismatch`),
 *     and so is a request without the binding;
 *   - each tools/call is handed, by its JSON-RPC id, the caller resolved on
 *     its own HTTP request; the tool (api/mcp/server.ts) refuses to run
 *     without one. So every tool call rechecks membership, suspension, key
 *     status and binding state, and a revocation stops the next call.
 * The MCP transport session ID is a connection handle only: it never selects
 * memory and never stands in for the primary session (ID-5).
 * Errors are JSON-RPC errors with the platform's HTTP status and stable
 * `data.code`; they never echo the rejected ID.
 */
import { randomUUID } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { isInitializeRequest, isJSONRPCRequest, SUPPORTED_PROTOCOL_VERSIONS, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { AppError, coerceError } from "../../core/errors";
import { MCP_IDLE_TIMEOUT_MS, MCP_MAX_TRANSPORTS } from "../../core/limits";
import type { AppContext } from "../context";
import { namedSession, resolveExecution } from "../execution";
import { clientIp, credentialsOf, limitsOf, safeCause, setRetryAfter } from "../http";
import { authenticate } from "../../core/auth/authenticate";
import { createMcpServer, type ToolCaller, type ToolExtra } from "./server";
import { presentsCredentials } from "./auth-challenge";

export const MCP_PATH = "/mcp";
const MCP_SESSION_HEADER = "mcp-session-id";
/** Requests that may run on a transport with no identity bound yet. */
const OPEN_METHODS = new Set(["initialize", "ping", "tools/list"]);

interface Owner {
  readonly orgId: string;
  readonly userId: string;
  readonly sessionId: string;
}

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  owner: Owner | undefined;
  lastSeen: number;
  /** Callers resolved for in-flight tools/call requests, by JSON-RPC id. */
  readonly pending: Map<RequestId, ToolCaller>;
}

export interface McpHttp {
  router: Router;
  /** Open transports (for tests and shutdown). */
  readonly size: number;
  closeAll(): Promise<void>;
}

/**
 * The SDK's transport answers an unsupported MCP-Protocol-Version with the header quoted (and reports
 * it to onerror the same way): checked here first, as our stable error with fixed text.
 */
function checkProtocolVersion(req: Request): void {
  const v = req.headers["mcp-protocol-version"];
  if (v !== undefined && (typeof v !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(v))) {
    throw new AppError("mcp_protocol_unsupported", { details: { supported: SUPPORTED_PROTOCOL_VERSIONS } });
  }
}

function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : body === undefined || body === null ? [] : [body];
}

function sendError(res: Response, err: unknown, id: RequestId | null = null): void {
  const e = coerceError(err);
  if (res.headersSent) return;
  setRetryAfter(res, e);
  res.status(e.status).json({
    jsonrpc: "2.0",
    error: { code: e.status === 401 || e.status === 403 ? -32001 : -32000, message: e.message, data: { code: e.code } },
    id,
  });
}

function sameOwner(a: Owner, b: Owner): boolean {
  return a.orgId === b.orgId && a.userId === b.userId && a.sessionId === b.sessionId;
}

export function mcpHttp(ctx: AppContext): McpHttp {
  const entries = new Map<string, Entry>();

  /** Resolves the request's execution and binds or checks the entry's owner. */
  async function admit(entry: Entry, req: Request): Promise<ToolCaller> {
    const { actor, identity, expiresAt } = await resolveExecution(ctx, req);
    const owner: Owner = { orgId: identity.tenant_id, userId: identity.subject_id, sessionId: identity.session_id };
    // No await between this check and the assignment: concurrent first requests cannot both bind.
    if (entry.owner === undefined) entry.owner = owner;
    else if (!sameOwner(entry.owner, owner)) throw new AppError("mcp_binding_mismatch");
    return { actor, identity, expiresAt };
  }

  /** Whose initialize this is, for its rate limit: the API key (or sign-in) that authenticates, else the client address. */
  async function initializeKey(req: Request): Promise<string> {
    try {
      const actor = await authenticate(ctx.db, ctx.clock, credentialsOf(req));
      return actor.apiKeyId !== null ? `key:${actor.apiKeyId}` : `login:${actor.loginSessionId ?? actor.userId}`;
    } catch (err) {
      // initialize may proceed without identity (MCP-2), but a credential that was sent and fails is refused (401).
      if (presentsCredentials(req)) throw err;
      return `ip:${clientIp(req)}`;
    }
  }

  function sweep(now: number): void {
    for (const [id, e] of entries) {
      if (now - e.lastSeen > MCP_IDLE_TIMEOUT_MS) {
        entries.delete(id);
        void e.transport.close().catch(() => undefined);
      }
    }
    if (entries.size < MCP_MAX_TRANSPORTS) return;
    // Full: make room by dropping the longest-idle transport that never bound an identity.
    let victim: [string, Entry] | undefined;
    for (const kv of entries) if (!kv[1].owner && (!victim || kv[1].lastSeen < victim[1].lastSeen)) victim = kv;
    if (victim) {
      entries.delete(victim[0]);
      void victim[1].transport.close().catch(() => undefined);
    }
  }

  function open(): Entry {
    sweep(Date.now());
    if (entries.size >= MCP_MAX_TRANSPORTS) throw new AppError("unavailable", { message: "Too many open MCP sessions; try again later." });
    const pending = new Map<RequestId, ToolCaller>();
    const server = createMcpServer(ctx, {
      callerFor(extra: ToolExtra): ToolCaller {
        const caller = pending.get(extra.requestId);
        if (!caller) throw new AppError("unauthenticated", { message: "No execution identity was resolved for this tool call." });
        return caller;
      },
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        entries.set(sid, entry);
      },
    });
    const entry: Entry = { transport, server, owner: undefined, lastSeen: Date.now(), pending };
    transport.onclose = () => {
      const sid = transport.sessionId;
      if (sid !== undefined && entries.get(sid) === entry) entries.delete(sid);
    };
    // The SDK's messages can quote request text (headers, bodies): only the error's name reaches the log.
    transport.onerror = (err) => ctx.logger.warn({ cause: { name: err.name } }, "mcp transport error");
    return entry;
  }

  function lookup(req: Request): Entry {
    const sid = req.headers[MCP_SESSION_HEADER];
    if (typeof sid !== "string" || sid.length === 0) {
      throw new AppError("validation_failed", { message: "The Mcp-Session-Id header is missing; initialize first." });
    }
    const entry = entries.get(sid);
    if (!entry) throw new AppError("not_found", { message: "The MCP session does not exist or has ended; initialize again." });
    entry.lastSeen = Date.now();
    return entry;
  }

  async function handlePost(req: Request, res: Response): Promise<void> {
    const messages = messagesOf(req.body);
    const single = messages.length === 1 && isJSONRPCRequest(messages[0]) ? messages[0].id : null;
    let entry: Entry;
    let created = false;
    try {
      if (req.headers[MCP_SESSION_HEADER] === undefined && messages.some((m) => isInitializeRequest(m))) {
        await limitsOf(ctx).mcpInitialize.consume(await initializeKey(req));
        entry = open();
        created = true;
      } else {
        checkProtocolVersion(req);
        entry = lookup(req);
      }
    } catch (err) {
      sendError(res, err, single);
      return;
    }
    const calls = messages.filter((m) => isJSONRPCRequest(m) && !OPEN_METHODS.has(m.method)).map((m) => (m as { id: RequestId }).id);
    const ids: RequestId[] = [];
    try {
      // Bound: every request must present the binding. Unbound: tool work, or a named session, resolves (and binds).
      if (entry.owner !== undefined || calls.length > 0 || namedSession(req) !== null) {
        const caller = await admit(entry, req);
        for (const id of calls) {
          if (entry.pending.has(id)) throw new AppError("validation_failed", { message: "A request with this JSON-RPC id is already in flight." });
          entry.pending.set(id, caller);
          ids.push(id);
        }
      }
    } catch (err) {
      for (const id of ids) entry.pending.delete(id);
      if (created) void entry.transport.close().catch(() => undefined);
      sendError(res, err, single);
      return;
    }
    try {
      if (created) await entry.server.connect(entry.transport);
      await entry.transport.handleRequest(req, res, req.body);
    } finally {
      for (const id of ids) entry.pending.delete(id);
    }
  }

  /** GET (SSE stream, resume) and DELETE: the entry must exist, and a bound one must be presented its binding. */
  async function handleStream(req: Request, res: Response): Promise<void> {
    let entry: Entry;
    try {
      checkProtocolVersion(req);
      entry = lookup(req);
      if (entry.owner !== undefined || namedSession(req) !== null) await admit(entry, req);
    } catch (err) {
      sendError(res, err);
      return;
    }
    await entry.transport.handleRequest(req, res);
  }

  const router = Router();
  const guard = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response) => {
    fn(req, res).catch((err: unknown) => {
      ctx.logger.error({ cause: safeCause(err), route: MCP_PATH }, "mcp request failed");
      sendError(res, err);
    });
  };
  router.post(MCP_PATH, guard(handlePost));
  router.get(MCP_PATH, guard(handleStream));
  router.delete(MCP_PATH, guard(handleStream));
  router.all(MCP_PATH, (_req, res) => {
    res.setHeader("allow", "GET, POST, DELETE");
    sendError(res, new AppError("validation_failed", { message: "Method not allowed on /mcp." }));
  });

  return {
    router,
    get size() {
      return entries.size;
    },
    async closeAll() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((e) => e.transport.close().catch(() => undefined)));
    },
  };
}

/** The router to mount on the app (api/app.ts). */
export function mcpRoutes(ctx: AppContext): Router {
  const mcp = mcpHttp(ctx);
  ctx.closers?.push(() => mcp.closeAll());
  return mcp.router;
}

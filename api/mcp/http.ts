/**
 * MCP over Streamable HTTP at `/mcp` (MCP-2), on any number of API nodes, in both protocol eras.
 *
 * Every request first meets the endpoint's own rules (api/mcp/http-rules.ts: the Origin, the
 * protocol revision, JSON-RPC refusals); then the SDK's own classifier (`isLegacyRequest`) routes:
 *
 *   - 2026-07-28 ("modern"): stateless. The SDK's `createMcpHandler` (legacy: "reject") serves each
 *     request from a fresh server instance: `server/discover`, the per-request `_meta` envelope,
 *     the Mcp-Method / Mcp-Name header checks, list caching and the revision's error codes are the
 *     SDK's. Identity is resolved here from THIS request — its execution headers and the runtime keys of
 *     its messages' `_meta` (`threadId`, `vscode.conversationId`; two different threads are refused,
 *     api/execution.ts `namedSession`) — for every method but the open ones (server/discover,
 *     tools/list, ping), and for those too when the request names a session; it reaches the tools
 *     as the request's AuthInfo. Nothing is stored per client.
 *   - 2025 revisions ("legacy": 2025-11-25, 2025-06-18, …): the sessionful transport below.
 *
 * Legacy state: every MCP transport session is a durable row (core/mcp-sessions.ts: the
 * client's initialize params and the owner), and each node keeps a cache of live SDK
 * transports in a map filled on `onsessioninitialized` and emptied on the transport's
 * `onclose`. A request for a session this node has not seen (initialized on another node,
 * or before this node restarted) rebuilds it: a fresh transport whose session ID generator
 * yields the known ID and a fresh server, given the stored `initialize` once (`hydrate`).
 * Every request renews the row (`touch`); a session that ended (DELETE) or idled out is
 * 404 on every node and its cached transport is closed.
 *
 * Per legacy request, before the SDK sees it:
 *   - no `Mcp-Session-Id`: only an `initialize` POST (it creates the session);
 *     an unknown ID is 404;
 *   - the session is UNBOUND: a request that needs identity (any JSON-RPC
 *     request other than initialize / ping / tools/list — i.e. tools/call) or
 *     that names a session (headers or `_meta`) is resolved with `resolveExecution`
 *     (exactly the REST middleware's resolution: credentials, headers, binding,
 *     account state; plus the body's `_meta`) and its (org, user, session)
 *     becomes the owner — first resolution binds, in the durable row, once for
 *     every node;
 *   - the session is BOUND: EVERY request on it (POST of any method, GET/SSE,
 *     resume, DELETE), on whichever node, is resolved again and must name the
 *     same owner; another primary session or another caller is refused
 *     (`mcp_binding_mismatch`), and so is a request without the binding;
 *   - each request is handed the caller resolved on its own HTTP request (as
 *     its AuthInfo); a tool (api/mcp/server.ts) refuses to run without one.
 *     So every tool call rechecks membership, suspension, key status and
 *     binding state, and a revocation stops the next call.
 * What stays with one node: an open SSE stream (GET, or a POST's response stream) and
 * the in-flight callers of that node's requests. See docs/mcp.md.
 * The MCP transport session ID is a connection handle only: it never selects
 * memory and never stands in for the primary session (ID-5), and only its hash is stored.
 * Refusals here are JSON-RPC errors (`sendError`); they never echo the rejected ID.
 */
import { randomUUID } from "node:crypto";
import { getRequestListener } from "@hono/node-server";
import { Router, type Request, type Response } from "express";
import {
  createMcpHandler,
  isInitializeRequest,
  isJSONRPCRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
} from "@modelcontextprotocol/server";
import { AppError } from "../../core/errors";
import { MCP_IDLE_TIMEOUT_MS, MCP_MAX_INIT_BYTES, MCP_MAX_TRANSPORTS, MCP_SWEEP_BATCH } from "../../core/limits";
import type { AppContext } from "../context";
import { namedSession, resolveExecution, type RepoAsk } from "../execution";
import { toolRepoAsk } from "./tools/operations";
import { clientIp, credentialsOf, limitsOf, safeCause } from "../http";
import { checkProtocolVersion, MCP_PATH, messagesOf, sendError } from "./http-rules";
import { authenticate } from "../../core/auth/authenticate";
import { authInfoFor, createMcpServer, type ToolCaller } from "./server";
import type { McpOwner, McpSessionRecord, McpSessionStore } from "../../core/mcp-sessions";
import { presentsCredentials } from "./auth-challenge";
import { isTaskListen, ListenerCounts, serveTaskListen } from "./task-listen";

const MCP_SESSION_HEADER = "mcp-session-id";
/** Requests that may run on a transport with no identity bound yet (legacy), or without identity at all (modern). */
const OPEN_METHODS = new Set(["initialize", "ping", "tools/list", "server/discover"]);
/** How often a node deletes idled-out sessions and closes cached transports that ended elsewhere. */
const SWEEP_INTERVAL_MS = 60_000;

interface Entry {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** The Mcp-Session-Id, once the transport has one. */
  sid: string | undefined;
  owner: McpOwner | undefined;
  lastSeen: number;
}

export interface McpHttp {
  router: Router;
  /** Transports open on this node (for tests and shutdown). */
  readonly size: number;
  /** Closes this node's transports and their streams; the sessions live on for other nodes. */
  closeAll(): Promise<void>;
}

function sameOwner(a: McpOwner, b: McpOwner): boolean {
  return a.orgId === b.orgId && a.userId === b.userId && a.sessionId === b.sessionId;
}

const notFound = () => new AppError("not_found", { message: "The MCP session does not exist or has ended; initialize again." });

/** Hands an express request to a web-standard handler (the SDK's), its parsed body passed on. */
async function serveWeb(req: Request, res: Response, handle: (webReq: globalThis.Request, parsedBody: unknown) => Promise<globalThis.Response>): Promise<void> {
  const parsedBody: unknown = req.body;
  const listener = getRequestListener((webReq) => handle(webReq, parsedBody), { overrideGlobalObjects: false });
  await listener(req, res);
}

/** Hands an express request to the SDK's sessionful transport, with the caller resolved for it. */
function serveWith(transport: WebStandardStreamableHTTPServerTransport, req: Request, res: Response, authInfo?: AuthInfo): Promise<void> {
  return serveWeb(req, res, (webReq, parsedBody) => transport.handleRequest(webReq, { parsedBody, ...(authInfo ? { authInfo } : {}) }));
}

/** Which era the request belongs to, by the SDK's own classification (headers and body). */
async function isLegacy(req: Request): Promise<boolean> {
  if (req.method !== "POST") return true; // GET (SSE) and DELETE are the 2025 session operations
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const probe = new globalThis.Request(`http://node.local${MCP_PATH}`, { method: "POST", headers });
  return isLegacyRequest(probe, req.body ?? null);
}

export function mcpHttp(ctx: AppContext, store: McpSessionStore = ctx.stores.mcpSessions): McpHttp {
  const entries = new Map<string, Entry>();
  /** Sessions being rebuilt on this node: concurrent requests for one share the rebuild. */
  const hydrating = new Map<string, Promise<Entry>>();
  /** Task listeners open on this node, per execution session (api/mcp/task-listen.ts). */
  const listeners = new ListenerCounts();

  /** Resolves the request's execution and binds or checks the session's owner. */
  async function admit(entry: Entry, req: Request, repo?: RepoAsk, messages: readonly unknown[] = []): Promise<ToolCaller> {
    const { actor, identity, expiresAt, repo: resolved, read } = await resolveExecution(ctx, req, repo, messages);
    const owner: McpOwner = { orgId: identity.tenant_id, userId: identity.subject_id, sessionId: identity.session_id };
    if (entry.owner === undefined) {
      if (entry.sid === undefined) {
        // A session being created by this request: its row is written with this owner (onsessioninitialized).
        entry.owner = owner;
      } else {
        // The durable row decides, for every node: the first binder wins and is read back by all.
        const bound = await store.bind(entry.sid, owner);
        if (bound === undefined) throw notFound();
        entry.owner ??= bound;
      }
    }
    if (!sameOwner(entry.owner, owner)) throw new AppError("mcp_binding_mismatch");
    return { actor, identity, expiresAt, ...(resolved ? { repo: resolved } : {}), ...(read ? { read } : {}) };
  }

  /** Whose initialize this is, for its rate limit: the API key (or sign-in) that authenticates, else the client address. */
  async function initializeKey(req: Request): Promise<string> {
    try {
      const actor = await authenticate(ctx.identity, ctx.clock, credentialsOf(req));
      return actor.apiKeyId !== null ? `key:${actor.apiKeyId}` : `login:${actor.loginSessionId ?? actor.userId}`;
    } catch (err) {
      // initialize may proceed without identity (MCP-2), but a credential that was sent and fails is refused (401).
      if (presentsCredentials(req)) throw err;
      return `ip:${clientIp(req)}`;
    }
  }

  function drop(sid: string, e: Entry): void {
    if (entries.get(sid) === e) entries.delete(sid);
    void e.transport.close().catch(() => undefined);
  }

  /** Makes room in this node's cache. A dropped transport is only a cache miss: the session is rebuilt on its next request. */
  function makeRoom(now: number): void {
    for (const [sid, e] of entries) if (now - e.lastSeen > MCP_IDLE_TIMEOUT_MS) drop(sid, e);
    if (entries.size < MCP_MAX_TRANSPORTS) return;
    // Full: the longest-idle transport that never bound an identity goes first, else the longest-idle one.
    let victim: [string, Entry] | undefined;
    for (const kv of entries) if (!kv[1].owner && (!victim || kv[1].lastSeen < victim[1].lastSeen)) victim = kv;
    if (!victim) for (const kv of entries) if (!victim || kv[1].lastSeen < victim[1].lastSeen) victim = kv;
    if (victim) drop(victim[0], victim[1]);
  }

  /** A transport and server pair; `knownSid` rebuilds an existing session, otherwise initialize creates one. */
  function build(knownSid: string | undefined, onInitialized: (sid: string, entry: Entry) => Promise<void>): Entry {
    makeRoom(Date.now());
    const server = createMcpServer(ctx, "legacy");
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => knownSid ?? randomUUID(),
      onsessioninitialized: async (sid) => {
        entry.sid = sid;
        await onInitialized(sid, entry);
        entries.set(sid, entry);
      },
      // The client ended the session (DELETE): it ends on every node.
      onsessionclosed: async (sid) => {
        await store.remove(sid);
      },
    });
    const entry: Entry = { transport, server, sid: undefined, owner: undefined, lastSeen: Date.now() };
    transport.onclose = () => {
      if (entry.sid !== undefined && entries.get(entry.sid) === entry) entries.delete(entry.sid);
    };
    // The SDK's messages can quote request text (headers, bodies): only the error's name reaches the log.
    transport.onerror = (err) => ctx.logger.warn({ cause: { name: err.name } }, "mcp transport error");
    return entry;
  }

  /** Rebuilds on this node a session initialized elsewhere: the stored initialize, replayed once into a fresh pair. */
  async function hydrate(sid: string, rec: McpSessionRecord): Promise<Entry> {
    const entry = build(sid, async () => undefined);
    entry.owner = rec.owner;
    await entry.server.connect(entry.transport);
    const replay = await entry.transport.handleRequest(
      new Request(`http://node.local${MCP_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      }),
      { parsedBody: { jsonrpc: "2.0", id: 0, method: "initialize", params: rec.init } },
    );
    await replay.text();
    if (replay.status !== 200 || entries.get(sid) !== entry) {
      void entry.transport.close().catch(() => undefined);
      throw new AppError("internal", { message: "The MCP session could not be restored on this node; initialize again." });
    }
    return entry;
  }

  /** The session named by the request, renewed; rebuilt on this node when it lives only in the store. */
  async function lookup(req: Request): Promise<Entry> {
    const sid = req.headers[MCP_SESSION_HEADER];
    if (typeof sid !== "string" || sid.length === 0) {
      throw new AppError("validation_failed", { message: "The Mcp-Session-Id header is missing; initialize first." });
    }
    const rec = await store.touch(sid, ctx.clock.now());
    const cached = entries.get(sid);
    if (rec === undefined) {
      if (cached) drop(sid, cached);
      throw notFound();
    }
    let entry = cached;
    if (!entry) {
      let p = hydrating.get(sid);
      if (!p) {
        p = hydrate(sid, rec).finally(() => hydrating.delete(sid));
        hydrating.set(sid, p);
      }
      entry = await p;
    }
    // Bound on another node since this node cached it: the stored owner is the owner.
    entry.owner ??= rec.owner;
    entry.lastSeen = Date.now();
    return entry;
  }

  /** Opens a new session for an initialize; its row is written before the SDK answers (with the owner, if this request bound one). */
  function open(init: unknown): Entry {
    if (Buffer.byteLength(JSON.stringify(init ?? null)) > MCP_MAX_INIT_BYTES) {
      throw new AppError("validation_failed", { message: "The initialize params are too large.", details: { limit: "MCP_MAX_INIT_BYTES" } });
    }
    return build(undefined, (sid, entry) => store.create(sid, init, entry.owner, ctx.clock.now()));
  }

  /** The 2026-07-28 era: stateless, one fresh server per request; identity from this request's headers. */
  const modern = createMcpHandler(({ era }) => createMcpServer(ctx, era), {
    legacy: "reject",
    onerror: (err) => ctx.logger.warn({ cause: { name: err.name } }, "mcp request refused"),
  });

  async function handleModern(req: Request, res: Response): Promise<void> {
    const messages = messagesOf(req.body);
    const single = messages.length === 1 && isJSONRPCRequest(messages[0]) ? messages[0].id : null;
    let authInfo: AuthInfo | undefined;
    let caller: ToolCaller | undefined;
    try {
      // Before the SDK, which would quote an unsupported version back.
      checkProtocolVersion(req);
      const work = messages.some((m) => isJSONRPCRequest(m) && !OPEN_METHODS.has(m.method));
      if (work || namedSession(req, messages) !== null) {
        const { actor, identity, expiresAt, repo, read } = await resolveExecution(ctx, req, toolRepoAsk(messages), messages);
        caller = { actor, identity, expiresAt, ...(repo ? { repo } : {}), ...(read ? { read } : {}) };
        authInfo = authInfoFor(caller);
      }
      // Task notifications: a listen naming taskIds is served from the job watcher, as the caller resolved above.
      if (messages.length === 1 && isTaskListen(messages[0]) && caller) {
        const named = req.headers["mcp-method"];
        if (named !== undefined && named !== "subscriptions/listen") throw new AppError("validation_failed", { message: "The Mcp-Method header does not match the request." });
        await serveTaskListen(ctx, listeners, caller, messages[0], res);
        return;
      }
    } catch (err) {
      sendError(res, err, single);
      return;
    }
    await serveWeb(req, res, (webReq, parsedBody) => modern.fetch(webReq, { parsedBody, ...(authInfo ? { authInfo } : {}) }));
  }

  async function handlePost(req: Request, res: Response): Promise<void> {
    if (!(await isLegacy(req))) return handleModern(req, res);
    const messages = messagesOf(req.body);
    const single = messages.length === 1 && isJSONRPCRequest(messages[0]) ? messages[0].id : null;
    let entry: Entry;
    let created = false;
    try {
      const init = messages.find((m) => isInitializeRequest(m));
      if (req.headers[MCP_SESSION_HEADER] === undefined && init !== undefined) {
        await limitsOf(ctx).mcpInitialize.consume(await initializeKey(req));
        entry = open(init.params);
        created = true;
      } else {
        checkProtocolVersion(req);
        entry = await lookup(req);
      }
    } catch (err) {
      sendError(res, err, single);
      return;
    }
    const calls = messages.filter((m) => isJSONRPCRequest(m) && !OPEN_METHODS.has(m.method));
    let caller: ToolCaller | undefined;
    try {
      // Bound: every request must present the binding. Unbound: tool work, or a named session, resolves (and binds).
      if (entry.owner !== undefined || calls.length > 0 || namedSession(req, messages) !== null) {
        caller = await admit(entry, req, calls.length === 1 ? toolRepoAsk(messages) : undefined, messages);
      }
    } catch (err) {
      if (created) void entry.transport.close().catch(() => undefined);
      sendError(res, err, single);
      return;
    }
    if (created) await entry.server.connect(entry.transport);
    await serveWith(entry.transport, req, res, caller ? authInfoFor(caller) : undefined);
  }

  /** GET (SSE stream, resume) and DELETE: the session must exist, and a bound one must be presented its binding. */
  async function handleStream(req: Request, res: Response): Promise<void> {
    let entry: Entry;
    let caller: ToolCaller | undefined;
    try {
      checkProtocolVersion(req);
      entry = await lookup(req);
      if (entry.owner !== undefined || namedSession(req) !== null) caller = await admit(entry, req);
    } catch (err) {
      sendError(res, err);
      return;
    }
    await serveWith(entry.transport, req, res, caller ? authInfoFor(caller) : undefined);
  }

  /** Deletes idled-out sessions (bounded batch) and closes cached transports whose session ended on another node. */
  async function sweep(): Promise<void> {
    const now = ctx.clock.now();
    await store.sweep(now, MCP_SWEEP_BATCH);
    const cached = [...entries.keys()];
    const live = await store.live(cached, now);
    for (const sid of cached) {
      const e = entries.get(sid);
      if (e && !live.has(sid)) drop(sid, e);
    }
  }
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => ctx.logger.warn({ cause: safeCause(err) }, "mcp session sweep failed"));
  }, SWEEP_INTERVAL_MS);
  timer.unref();

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
      clearInterval(timer);
      await modern.close().catch(() => undefined);
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

/**
 * `codesynapse mcp`: the stdio MCP entry point (MCP-3), one process per chat
 * thread.
 *
 * Design: a forwarder. The process holds no database credentials and no tool
 * code; it relays `tools/list` and `tools/call` to the server's Streamable
 * HTTP endpoint (`$CODESYNAPSE_URL/mcp`), which is the one enforcement point
 * (api/mcp/http.ts) and resolves the identity before every tool call.
 *
 * Start-up, in order, before any MCP byte is written:
 *   1. read CODESYNAPSE_API_KEY, the thread — CODESYNAPSE_SESSION_ID with
 *      CODESYNAPSE_PARENT_SESSION_ID, or a runtime's CLAUDE_CODE_SESSION_ID /
 *      CODEX_THREAD_ID — and CODESYNAPSE_URL ONCE into a frozen object (later
 *      environment changes have no effect: nothing reads process.env again);
 *   2. refuse (exit 2) when one is missing or malformed, the parent differs, or
 *      two variables name different threads;
 *   3. verify them against the server (`GET /api/v1/execution/identity`, through
 *      @codesynapse/client, clients/typescript) and
 *      refuse (exit 1) when the binding is unregistered, foreign, revoked or
 *      expired, the key is bad, or the server cannot be reached (a thread named by
 *      a runtime's variable is waited for, bounded, while it is not registered yet:
 *      the runtime's SessionStart hook registers it at the same time);
 *   4. check the upstream endpoint (a 2026-07-28 `server/discover` with the fixed headers), then
 *      serve MCP on stdin/stdout in both eras (the SDK's `serveStdio`: a client that opens with
 *      `initialize` gets a 2025 connection, one that opens with `server/discover` a 2026-07-28 one).
 * Upstream, every forwarded request is a stateless 2026-07-28 request carrying the fixed execution
 * headers (and a tools/call's runtime `_meta` keys, so that a client naming another thread there is
 * refused by the server, never run as this one), so the server resolves the identity on each one and
 * there is no upstream session to lose (a server restart or another node changes nothing). Tasks are not forwarded: over stdio the
 * submitting tools answer `{job_id}` and get_job follows the job.
 * stdout carries MCP protocol only; every message of ours goes to stderr.
 * Closing stdin ends the process once every request read before it is answered (bounded;
 * api/mcp/stdio-transport.ts); SIGTERM or SIGINT ends it at once.
 */
import { CodeSynapseClient, CodeSynapseError, PARENT_HEADER, SESSION_HEADER, type Identity } from "@codesynapse/client";
import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Server, type CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import { API_KEY_PATTERN } from "../../core/accounts/api-keys";
import { isValidId } from "../../core/execution/identity";
import { oneSession, RUNTIME_ENV_KEYS, RUNTIME_META_KEYS } from "../../core/execution/session-sources";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "./server";
import { AnsweringStdioTransport } from "./stdio-transport";

import { DEFAULT_SERVER_URL } from "./server-url";

export { DEFAULT_SERVER_URL };

export interface StdioSettings {
  readonly url: string;
  readonly apiKey: string;
  readonly sessionId: string;
  /**
   * How long start-up waits for the thread to be registered when a runtime's own variable named it
   * (0: not at all). The runtime starts its stdio servers and its SessionStart hook — which
   * registers the thread (`codesynapse hook`) — at the same time; the wait covers that race and
   * never registers anything itself: an ID still unregistered after it is refused.
   */
  readonly registrationWaitMs: number;
}

/** The default of CODESYNAPSE_MCP_REGISTRATION_WAIT_MS. */
export const REGISTRATION_WAIT_MS = 10_000;

/** A refusal to start: `exitCode` 2 = bad settings, 1 = the server refused or could not be reached. */
export class StartupRefused extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "StartupRefused";
  }
}

/** The variables that may name this process's thread: ours, then the runtimes' own (core/execution/session-sources.ts). */
export const SESSION_VARIABLES = ["CODESYNAPSE_SESSION_ID", ...RUNTIME_ENV_KEYS] as const;

/**
 * Step 1–2: reads the settings once. Messages name variables, never their values. The thread is
 * named by CODESYNAPSE_SESSION_ID (with CODESYNAPSE_PARENT_SESSION_ID, equal) or by the variable a
 * runtime sets for the servers it spawns (CLAUDE_CODE_SESSION_ID, CODEX_THREAD_ID); every one that
 * is set must name the same thread.
 */
export function readSettings(env: NodeJS.ProcessEnv): StdioSettings {
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v === "" ? undefined : v;
  };
  const named = SESSION_VARIABLES.filter((n) => get(n) !== undefined);
  const ours = get("CODESYNAPSE_SESSION_ID") !== undefined || get("CODESYNAPSE_PARENT_SESSION_ID") !== undefined;
  const missing = [
    "CODESYNAPSE_API_KEY",
    ...(named.length === 0 || ours ? ["CODESYNAPSE_SESSION_ID", "CODESYNAPSE_PARENT_SESSION_ID"] : []),
  ].filter((n) => get(n) === undefined);
  if (missing.length > 0) {
    throw new StartupRefused(
      `missing ${missing.join(", ")}. The launcher must register this chat thread's ID (POST /api/v1/execution/sessions) ` +
        "and start one `codesynapse mcp` per thread with CODESYNAPSE_API_KEY and either CODESYNAPSE_SESSION_ID with " +
        "CODESYNAPSE_PARENT_SESSION_ID (equal to the session ID), or the runtime's own CLAUDE_CODE_SESSION_ID or CODEX_THREAD_ID; " +
        "see docs/mcp-client-guide.md.",
      2,
    );
  }
  const apiKey = get("CODESYNAPSE_API_KEY")!;
  if (!API_KEY_PATTERN.test(apiKey)) throw new StartupRefused("CODESYNAPSE_API_KEY is not shaped like a CodeSynapse personal API key (csk_, 8 hex digits, _, 43 characters of A-Z a-z 0-9 _ -: the api_key that `codesynapse admin bootstrap` or create-api-key printed).", 2);
  for (const n of named) {
    if (!isValidId(get(n))) throw new StartupRefused(`${n} is malformed (1-128 of A-Z a-z 0-9 . _ : -).`, 2);
  }
  const parent = get("CODESYNAPSE_PARENT_SESSION_ID");
  if (parent !== undefined && !isValidId(parent)) throw new StartupRefused("CODESYNAPSE_PARENT_SESSION_ID is malformed (1-128 of A-Z a-z 0-9 . _ : -).", 2);
  if (parent !== undefined && parent !== get("CODESYNAPSE_SESSION_ID")) {
    throw new StartupRefused("CODESYNAPSE_PARENT_SESSION_ID must equal CODESYNAPSE_SESSION_ID: a chat thread's primary session is its own parent.", 2);
  }
  let sessionId: string;
  try {
    sessionId = oneSession(named.map((n) => get(n)))!;
  } catch {
    throw new StartupRefused(`${named.join(", ")} name different threads (session_source_conflict); set one, or set them equal.`, 2);
  }
  const rawUrl = get("CODESYNAPSE_URL") ?? DEFAULT_SERVER_URL;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new StartupRefused("CODESYNAPSE_URL is not a URL.", 2);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new StartupRefused("CODESYNAPSE_URL must be an http(s) URL.", 2);
  const wait = get("CODESYNAPSE_MCP_REGISTRATION_WAIT_MS");
  const byRuntime = named.some((n) => n !== "CODESYNAPSE_SESSION_ID");
  const registrationWaitMs = !byRuntime ? 0 : wait !== undefined && /^\d{1,6}$/.test(wait) ? Number(wait) : REGISTRATION_WAIT_MS;
  return Object.freeze({ url: url.toString().replace(/\/+$/, ""), apiKey, sessionId, registrationWaitMs });
}

export function executionHeaders(s: StdioSettings): Record<string, string> {
  return { authorization: `Bearer ${s.apiKey}`, [SESSION_HEADER]: s.sessionId, [PARENT_HEADER]: s.sessionId };
}

/** The `{error: {code, message}}` of a platform error body, if the text is one. */
function platformError(text: string): { code: string; message: string } | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: { code?: unknown } } };
    const code = body.error?.data?.code ?? body.error?.code;
    const message = body.error?.message;
    return typeof code === "string" && typeof message === "string" ? { code, message } : undefined;
  } catch {
    return undefined;
  }
}

/** Step 3: the server checks key, headers and binding exactly as for every execution request (through @codesynapse/client). */
export async function verifyIdentity(s: StdioSettings): Promise<Identity> {
  const client = new CodeSynapseClient({ baseUrl: s.url, apiKey: s.apiKey, sessionId: s.sessionId });
  const until = Date.now() + s.registrationWaitMs;
  try {
    for (;;) {
      try {
        return await client.identity({ signal: AbortSignal.timeout(15_000) });
      } catch (err) {
        // Only "not registered yet" is waited for; every other answer is final at once.
        if (!(err instanceof CodeSynapseError) || err.code !== "session_not_found" || Date.now() + 250 > until) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } catch (err) {
    if (!(err instanceof CodeSynapseError) || err.code === "unreachable" || err.code === "aborted") {
      throw new StartupRefused(`cannot reach the CodeSynapse server at ${s.url} (CODESYNAPSE_URL).`, 1);
    }
    // The client's message is the server's fixed text and the stable code: never the key or the ID.
    throw new StartupRefused(`the server refused this execution identity: ${err.message}`, 1);
  }
}

/** The revision every forwarded request speaks upstream: stateless, identity on each request. */
const UPSTREAM_REVISION = "2026-07-28";

/** The upstream MCP endpoint: one stateless 2026-07-28 client, connected once (its `server/discover`). */
class Upstream {
  #client: Promise<Client> | undefined;

  constructor(private readonly settings: StdioSettings) {}

  client(): Promise<Client> {
    this.#client ??= (async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${this.settings.url}/mcp`), { requestInit: { headers: executionHeaders(this.settings) } });
      const client = new Client({ name: "codesynapse-stdio", version: MCP_SERVER_VERSION }, { versionNegotiation: { mode: { pin: UPSTREAM_REVISION } } });
      await client.connect(transport);
      return client;
    })().catch((err: unknown) => {
      this.#client = undefined;
      throw err;
    });
    return this.#client;
  }

  async call<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.client());
    } catch (err) {
      throw relayError(err);
    }
  }

  async close(): Promise<void> {
    const c = this.#client;
    this.#client = undefined;
    if (c) await (await c.catch(() => undefined))?.close().catch(() => undefined);
  }
}

/** An upstream refusal becomes a JSON-RPC error carrying the platform's stable code. */
function relayError(err: unknown): unknown {
  if (err instanceof ProtocolError) return err;
  if (err instanceof SdkHttpError) {
    const e = platformError(err.message);
    return new ProtocolError(-32001, e ? e.message : `The CodeSynapse server answered HTTP ${err.status}.`, { code: e?.code ?? "upstream_error", status: err.status });
  }
  return new ProtocolError(-32603, "The CodeSynapse server could not be reached.", { code: "unavailable" });
}

/** The runtime keys of a call's `_meta` (RUNTIME_META_KEYS), as the `_meta` to forward: the server checks them against this thread. */
function runtimeMeta(meta: unknown): { _meta?: Record<string, unknown> } {
  if (typeof meta !== "object" || meta === null) return {};
  const kept = Object.fromEntries(RUNTIME_META_KEYS.filter((k) => Object.hasOwn(meta, k)).map((k) => [k, (meta as Record<string, unknown>)[k]]));
  return Object.keys(kept).length > 0 ? { _meta: kept } : {};
}

export interface StdioHandle {
  close(): Promise<void>;
  /** Settles when the connection is over: stdin ended and every request read before it is answered (api/mcp/stdio-transport.ts), or close(). */
  closed: Promise<void>;
}

/** Steps 3–4 for already-read settings: verifies, then serves MCP (both eras) on the given stdio transport. */
export async function serveStdio(settings: StdioSettings, transport: AnsweringStdioTransport = new AnsweringStdioTransport()): Promise<StdioHandle> {
  const who = await verifyIdentity(settings);
  const upstream = new Upstream(settings);
  try {
    await upstream.client();
  } catch {
    throw new StartupRefused(`cannot open the MCP endpoint at ${settings.url}/mcp.`, 1);
  }
  /** One server instance per connection (and per discarded probe): the tools are the upstream's. */
  const factory = () => {
    const server = new Server(
      { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: "CodeSynapse memory and jobs for this chat thread (identity fixed at start-up)." },
    );
    server.setRequestHandler("tools/list", (req, extra) => upstream.call((c) => c.listTools(req.params, { signal: extra.mcpReq.signal })));
    server.setRequestHandler("tools/call", (req, extra) =>
      upstream.call(
        (c) =>
          c.callTool({ name: req.params.name, arguments: req.params.arguments ?? {}, ...runtimeMeta(req.params._meta) }, { signal: extra.mcpReq.signal }) as Promise<CallToolResult>,
      ),
    );
    return server;
  };
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const prevClose = transport.onclose;
  const handle = serveSdkStdio(factory, { transport, onerror: (err) => console.error(`codesynapse mcp: ${err.name}`) });
  const close = async () => {
    await handle.close().catch(() => undefined);
    await upstream.close();
    done();
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    prevClose?.();
    void close();
  };
  console.error(`codesynapse mcp: serving on stdio for organisation ${who.tenant_id}, forwarding to ${settings.url}/mcp`);
  return { close, closed };
}

/** The CLI entry: never returns normally; exits 0 when stdin closes, non-zero on refusal. */
export async function runStdio(env: NodeJS.ProcessEnv = process.env): Promise<never> {
  try {
    const settings = readSettings({ ...env });
    const { close, closed } = await serveStdio(settings);
    // The client closing stdin ends the thread's process once its answers are out (the transport
    // waits for them, bounded); a signal ends it now.
    const stop = () => void close();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    await closed;
    // The last answers are written before the exit.
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(0);
  } catch (err) {
    if (err instanceof StartupRefused) {
      console.error(`codesynapse mcp: refusing to start: ${err.message}`);
      process.exit(err.exitCode);
    }
    console.error(`codesynapse mcp: failed: ${(err as Error).message}`);
    process.exit(1);
  }
}

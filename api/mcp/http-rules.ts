/**
 * The /mcp endpoint's rules that hold before any MCP session, in both protocol eras: its path and
 * the protocol revisions it serves (an unsupported MCP-Protocol-Version is refused with fixed
 * text, never quoted back), the Origin rule (DNS rebinding protection: a present Origin that is
 * not this server's own is 403 `mcp_origin_refused`, whatever the method), and the one shape of
 * its refusals: JSON-RPC errors with the platform's HTTP status and stable `data.code`, which never
 * echo the rejected ID. The sessions and the SDK's transports are api/mcp/http.ts.
 */
import type { Request, Response } from "express";
import { ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type RequestId } from "@modelcontextprotocol/server";
import { AppError, coerceError } from "../../core/errors";
import { fromBodyParser } from "../body-errors";
import type { AppContext } from "../context";
import { setRetryAfter } from "../http";

export const MCP_PATH = "/mcp";
/** The stateless revision this endpoint serves beside the SDK's 2025 ones. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** Every revision /mcp serves, newest first (what an unsupported-version refusal names). */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/**
 * The SDK's transport answers an unsupported MCP-Protocol-Version with the header quoted (and reports
 * it to onerror the same way): checked here first, as our stable error with fixed text.
 */
export function checkProtocolVersion(req: Request): void {
  const v = req.headers["mcp-protocol-version"];
  if (v !== undefined && (typeof v !== "string" || !MCP_PROTOCOL_VERSIONS.includes(v))) {
    throw new AppError("mcp_protocol_unsupported", { details: { supported: MCP_PROTOCOL_VERSIONS } });
  }
}

/**
 * The transport's Origin rule (DNS rebinding): a request may come with no Origin (a program), or
 * with this server's own — PUBLIC_ORIGIN when set; else a loopback origin (localhost, 127.0.0.1,
 * [::1]) naming the request's own Host. The Host alone proves nothing: after a DNS rebinding the
 * attacker's page sends Host and Origin of its own name, so without PUBLIC_ORIGIN only loopback
 * pages are this server's.
 */
export function originAllowed(req: Request, publicOrigin: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (typeof origin !== "string") return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // "null" (an opaque origin) and anything unparsable
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (publicOrigin !== undefined) return parsed.origin === publicOrigin;
  const host = req.headers.host;
  return LOOPBACK.has(parsed.hostname) && typeof host === "string" && parsed.host === host.toLowerCase();
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** JSON-RPC error codes for the platform's refusals on /mcp. */
function rpcCode(e: AppError): number {
  if (e.code === "mcp_protocol_unsupported") return ProtocolErrorCode.UnsupportedProtocolVersion;
  if (e.code === "validation_failed" && e.message.includes("not valid JSON")) return ProtocolErrorCode.ParseError;
  return e.status === 401 || e.status === 403 ? -32001 : -32000;
}

export function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : body === undefined || body === null ? [] : [body];
}

export function sendError(res: Response, err: unknown, id: RequestId | null = null): void {
  const e = coerceError(err);
  if (res.headersSent) return;
  setRetryAfter(res, e);
  res.status(e.status).json({
    jsonrpc: "2.0",
    error: { code: rpcCode(e), message: e.message, data: { code: e.code, ...(e.code === "mcp_protocol_unsupported" ? e.details : {}) } },
    id,
  });
}

/**
 * The transport's Origin rule for /mcp, mounted on the app before the CSRF guard and the body
 * parser: no method of either era runs for a request from a foreign Origin.
 */
export function mcpOriginGuard(ctx: AppContext) {
  return (req: Request, _res: Response, next: (e?: unknown) => void): void => {
    if (req.path !== MCP_PATH || originAllowed(req, ctx.config.PUBLIC_ORIGIN)) return next();
    next(new AppError("mcp_origin_refused"));
  };
}

/**
 * Error middleware for /mcp (mounted on the app after the body parser, before the REST error
 * middleware): whatever the app refused on this path before the routes ran — a body that is not
 * JSON (-32700), a CSRF or path refusal — answers as a JSON-RPC error too, one shape per transport.
 */
export function mcpErrors() {
  return (err: unknown, req: Request, res: Response, next: (e?: unknown) => void): void => {
    if (req.path !== MCP_PATH) return next(err);
    sendError(res, err instanceof AppError ? err : (fromBodyParser(err) ?? new AppError("validation_failed")));
  };
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the API and its MCP endpoint: the document
 * the `resource_metadata` of every 401's challenge points at (api/mcp/auth-challenge.ts).
 *
 *   GET /.well-known/oauth-protected-resource       → the whole API (resource = the origin)
 *   GET /.well-known/oauth-protected-resource/mcp   → the MCP endpoint (resource = <origin>/mcp)
 *
 * RFC 9728 §3.3: `resource` must equal the identifier the well-known URL was formed from, so each
 * variant names its own. Decision (docs/mcp-client-guide.md#authentication): this server issues its
 * own API keys (`codesynapse admin create-api-key`) and runs no OAuth authorization server, so the
 * document lists no `authorization_servers` (optional in RFC 9728 §2) and no scopes; it says the
 * key goes in the Authorization header as a Bearer token. A public document, no credentials: any
 * origin may read it (a browser-based client discovers it cross-origin).
 */
import { Router, type Request, type Response } from "express";
import { AppError } from "../../core/errors";
import type { AppContext } from "../context";
import { MCP_PATH } from "../mcp/http-rules";
import { originOf, PROTECTED_RESOURCE_PATH, REALM } from "../mcp/auth-challenge";

export interface ProtectedResourceMetadata {
  resource: string;
  resource_name: string;
  bearer_methods_supported: string[];
}

export function protectedResourceMetadata(origin: string, path = ""): ProtectedResourceMetadata {
  return { resource: `${origin}${path}`, resource_name: REALM, bearer_methods_supported: ["header"] };
}

export function wellKnownRoutes(ctx: AppContext): Router {
  const r = Router();
  const serve = (path: string) => (req: Request, res: Response) => {
    const origin = originOf(req, ctx.config.PUBLIC_ORIGIN);
    if (origin === undefined) throw new AppError("validation_failed", { message: "The Host header is not valid." });
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("cache-control", "public, max-age=300");
    res.setHeader("vary", "host");
    res.json(protectedResourceMetadata(origin, path));
  };
  r.get(PROTECTED_RESOURCE_PATH, serve(""));
  r.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, serve(MCP_PATH));
  return r;
}

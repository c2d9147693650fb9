/**
 * The Bearer challenge on every 401 (RFC 7235 §3.1, RFC 6750 §3, RFC 9728 §5.1; the resource-server
 * side of the MCP authorization spec), so OAuth-aware MCP clients learn how this server
 * authenticates instead of guessing at an OAuth login:
 *
 *   WWW-Authenticate: Bearer realm="CodeSynapse", resource_metadata="<origin>/.well-known/oauth-protected-resource"
 *                     [, error="invalid_token"]
 *
 * `error="invalid_token"` is added when the request presented a credential (an Authorization
 * header or the sign-in cookie) and it failed; a request that presented none gets the bare
 * challenge (RFC 6750 §3.1: no error code then). The header names no key, no session and nothing
 * the client sent. The body stays whatever the route answers (the platform's error with its real
 * code: `invalid_credentials`, `api_key_revoked`, …).
 *
 * The origin is PUBLIC_ORIGIN when set, else the request's own scheme and Host (only a Host that
 * is a plain host[:port]; any other leaves resource_metadata out rather than reflect it).
 */
import type { Request, RequestHandler, Response } from "express";
import type { AppContext } from "../context";
import { readCookie, SESSION_COOKIE } from "../http";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
export const REALM = "CodeSynapse";

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** PUBLIC_ORIGIN, else the request's own origin when its Host is a plain host[:port]. */
export function originOf(req: Request, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin !== undefined) return publicOrigin;
  const host = req.headers.host;
  if (typeof host !== "string" || !HOST.test(host)) return undefined;
  return `${req.protocol}://${host.toLowerCase()}`;
}

/** Whether the request presented a credential (so a 401 means that credential failed). */
export function presentsCredentials(req: Request): boolean {
  return req.headers.authorization !== undefined || readCookie(req, SESSION_COOKIE) !== undefined;
}

/** The WWW-Authenticate value for a 401 answered to this request. */
export function bearerChallenge(req: Request, publicOrigin: string | undefined): string {
  const parts = [`realm="${REALM}"`];
  const origin = originOf(req, publicOrigin);
  if (origin !== undefined) parts.push(`resource_metadata="${origin}${PROTECTED_RESOURCE_PATH}"`);
  if (presentsCredentials(req)) parts.push(`error="invalid_token"`);
  return `Bearer ${parts.join(", ")}`;
}

/**
 * Adds the challenge to every 401 the app sends, whoever writes it (the error middleware, the MCP
 * transport's JSON-RPC errors): the status is final only when the head is written, so the hook
 * sits on `writeHead`, which `res.end()` / `res.json()` reach too.
 */
export function authChallenge(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead;
    const patched = function (this: Response, ...args: unknown[]) {
      if (args[0] === 401 && !this.hasHeader("www-authenticate")) {
        this.setHeader("www-authenticate", bearerChallenge(req, ctx.config.PUBLIC_ORIGIN));
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    };
    res.writeHead = patched as unknown as Response["writeHead"];
    next();
  };
}

/**
 * CSRF (docs/security.md): SameSite=Strict is the browser's promise; this is the server's. A request
 * whose credential is the sign-in cookie and whose method changes state (POST, PUT, PATCH, DELETE)
 * must be same-origin:
 *
 * - `Sec-Fetch-Site` (sent by every current browser), when present, must be `same-origin` or `none`;
 * - otherwise `Origin` must equal PUBLIC_ORIGIN, or, when that is unset, name the request's own Host;
 * - a cookie request with neither header is refused.
 *
 * `Authorization: Bearer` requests are unaffected (the cookie is then not the credential). A request
 * without any credential (the sign-in itself) is refused only when its headers say it is cross-site
 * (login CSRF). A refusal is 403 `csrf_refused` and never quotes the headers.
 */
import type { Request, RequestHandler } from "express";
import { AppError } from "../core/errors";
import type { AppContext } from "./context";
import { readCookie, SESSION_COOKIE } from "./http";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type Verdict = "same" | "cross" | "unknown";

function single(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" ? v : undefined;
}

/** Where the request comes from, as far as its headers tell. */
export function requestSite(req: Request, publicOrigin: string | undefined): Verdict {
  const site = single(req, "sec-fetch-site");
  if (site !== undefined) return site === "same-origin" || site === "none" ? "same" : "cross";
  const origin = single(req, "origin");
  if (origin === undefined) return "unknown";
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return "cross"; // "null" (an opaque origin) and anything unparsable
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "cross";
  if (publicOrigin !== undefined) return parsed.origin === publicOrigin ? "same" : "cross";
  const host = single(req, "host");
  return host !== undefined && parsed.host === host.toLowerCase() ? "same" : "cross";
}

export function csrfGuard(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    if (!UNSAFE.has(req.method) || req.headers.authorization !== undefined) return next();
    const verdict = requestSite(req, ctx.config.PUBLIC_ORIGIN);
    const cookie = readCookie(req, SESSION_COOKIE) !== undefined;
    if (verdict === "cross" || (cookie && verdict === "unknown")) return next(new AppError("csrf_refused"));
    next();
  };
}

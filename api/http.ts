/**
 * Small HTTP helpers shared by every route: typed request state, zod body
 * parsing, credential extraction and the one error middleware.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { findUnsafeValue, isSafeId } from "../core/boundary";
import { AppError, coerceError } from "../core/errors";
import { identityRefusal } from "../core/errors-identity";
import { MAX_ID_CHARS } from "../core/limits";
import type { Actor, Credentials } from "../core/auth/authenticate";
import type { Logger } from "../core/log";
import type { RateLimits } from "../core/rate-limit";
import type { AppContext } from "./context";
import { fromBodyParser } from "./body-errors";

/** The sign-in cookie; signing in and out are catalog operations (ops/control.ts). */
export { SESSION_COOKIE } from "../ops/control";
import { SESSION_COOKIE } from "../ops/control";
export const ORG_HEADER = "x-codesynapse-org";

declare module "express-serve-static-core" {
  interface Request {
    actor?: Actor;
  }
}

/** The authenticated actor; the auth middleware must have run. */
export function actorOf(req: Request): Actor {
  if (!req.actor) throw new AppError("unauthenticated");
  return req.actor;
}

/** The boundary rule's refusal (core/boundary.ts) for a JSON value, or nothing. */
export function checkBoundary(value: unknown): void {
  const bad = findUnsafeValue(value);
  if (bad) throw new AppError("validation_failed", { message: `The request is not valid: ${bad.path}.`, details: { problems: [bad] } });
}

/**
 * Validates a body (or query, or tool arguments) with a zod schema, after the boundary scan of
 * every string in it; the error lists field paths, never values. `root` names the whole value
 * in a path ("(body)", "(arguments)").
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root = "(body)"): z.infer<S> {
  checkBoundary(value);
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const fields = [...new Set(r.error.issues.map((i) => i.path.join(".") || root))].slice(0, 20);
    const problems = r.error.issues.slice(0, 20).map((i) => ({ path: i.path.join(".") || root, code: i.code }));
    throw new AppError("validation_failed", { message: `The request is not valid: ${fields.join(", ")}.`, details: { problems } });
  }
  return r.data;
}

/** The client's address (Express's `req.ip`: X-Forwarded-For only from a proxy TRUST_PROXY trusts). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** The limits of ctx (createApp sets them). */
export function limitsOf(ctx: AppContext): RateLimits {
  if (!ctx.limits) throw new AppError("internal", { message: "Rate limits are not configured." });
  return ctx.limits;
}

/** `Retry-After` for a `rate_limited` refusal (its `details.retry_after_s`). */
export function setRetryAfter(res: Response, err: AppError): void {
  const retry = err.details?.retry_after_s;
  if (err.code === "rate_limited" && typeof retry === "number") res.setHeader("retry-after", String(retry));
}

/**
 * A cookie's value as sent (RFC 6265 cookie-octets, no percent-decoding). The cookies this server sets
 * are base64url tokens, which need no encoding, so the value judged by an operation's schema (and its
 * length limit) is the one on the wire: a decoded value could pass a limit the sent one breaks.
 */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function credentialsOf(req: Request): Credentials {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    // The scheme is case-insensitive (RFC 9110); a present but unusable Authorization header is a bad
    // credential, not an absent one, and its refusal says the scheme (core/auth/authenticate.ts).
    const m = /^Bearer ([^\s]+)$/i.exec(auth);
    return m ? { bearer: m[1]! } : { bearer: "", notBearer: true };
  }
  const cookie = readCookie(req, SESSION_COOKIE);
  const org = req.headers[ORG_HEADER];
  if (typeof org === "string" && org.length > 0 && (org.length > MAX_ID_CHARS || !isSafeId(org))) {
    throw identityRefusal("org_header_malformed");
  }
  return { cookieToken: cookie, orgHeader: typeof org === "string" && org.length > 0 ? org : undefined };
}

/**
 * The boundary rule for every path parameter of every route, before routing (api/app.ts): each
 * segment of the path must decode (percent-encoding, UTF-8) to a safe ID of at most MAX_ID_CHARS.
 * A refusal is 400 `validation_failed` and never quotes the path.
 */
export function pathGuard(): RequestHandler {
  return (req, _res, next) => {
    for (const raw of req.path.split("/")) {
      if (raw.length === 0) continue;
      let seg: string;
      try {
        seg = decodeURIComponent(raw);
      } catch {
        next(new AppError("validation_failed", { message: "The request path is not valid." }));
        return;
      }
      if (seg.length > MAX_ID_CHARS || !isSafeId(seg)) {
        next(new AppError("validation_failed", { message: "The request path is not valid." }));
        return;
      }
    }
    next();
  };
}

/** Wraps an async handler so its rejection reaches the error middleware. */
export function route(fn: (req: Request, res: Response) => Promise<unknown> | unknown): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .catch(next);
  };
}

export function errorBody(err: AppError): Record<string, unknown> {
  return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
}

/** The one error middleware: body-parser errors, AppErrors, and everything else as `internal`. */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // Body-parser refusals name the limit or the expected type (api/body-errors.ts).
    let appErr: AppError;
    const fromParser = err instanceof AppError ? undefined : fromBodyParser(err);
    if (fromParser) appErr = fromParser;
    else if (!(err instanceof AppError) && isClientError(err)) {
      // Anything else the framework refused with a 4xx (a path that does not decode, an aborted body):
      // its message can quote the request, so only the stable code and fixed text go out.
      appErr = new AppError("validation_failed");
    } else appErr = coerceError(err);
    if (appErr.status >= 500) {
      logger.error({ code: appErr.code, route: routeTemplate(req), cause: safeCause(appErr.cause ?? appErr) }, "request failed");
    }
    if (res.headersSent) return;
    setRetryAfter(res, appErr);
    res.status(appErr.status).json(errorBody(appErr));
  };
}

function isClientError(err: unknown): boolean {
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === "number" ? e.status : e?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** The matched route template (never the raw URL, which may carry an ID). */
export function routeTemplate(req: Request): string {
  const p = (req.route as { path?: string } | undefined)?.path;
  if (typeof p === "string") return `${req.baseUrl}${p}`;
  // A mounted app without routes of its own (the BullMQ board's static files): its mount path, once.
  return req.baseUrl ? `${req.baseUrl}/*` : "(unmatched)";
}

/** An error's name, code, message and stack — not driver `detail` fields, which can quote row values. */
export function safeCause(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const code = (err as { code?: unknown }).code;
  return { name: err.name, message: err.message, ...(typeof code === "string" ? { code } : {}), stack: err.stack };
}

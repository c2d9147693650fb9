/** Authentication middleware: every request that reaches a route behind it has `req.actor` (or, for the local operator, its token). */
import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { authenticate } from "../core/auth/authenticate";
import { AppError } from "../core/errors";
import type { AppContext } from "./context";
import { credentialsOf } from "./http";

/** The header carrying the server's local admin token (main/local-server.ts). */
export const LOCAL_ADMIN_HEADER = "x-codesynapse-local-admin";

export function requireActor(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    authenticate(ctx.identity, ctx.clock, credentialsOf(req))
      .then((actor) => {
        req.actor = actor;
        next();
      })
      .catch(next);
  };
}

export function requirePlatformAdmin(): RequestHandler {
  return (req, _res, next) => {
    next(req.actor?.isPlatformAdmin ? undefined : new AppError("platform_admin_required"));
  };
}

/** Whether the request carries the server's local admin token (compared in constant time). */
export function holdsLocalToken(ctx: AppContext, req: Request): boolean {
  const given = req.headers[LOCAL_ADMIN_HEADER];
  const want = ctx.localAdminToken;
  if (typeof given !== "string" || !want) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The local operator's operations (`local_admin`): the local CLI holding the server's local admin
 * token (the token file in the embedded data directory: whoever can read that directory already
 * holds the whole database), otherwise a platform admin. With the token, `req.actor` stays unset.
 */
export function requireLocalAdmin(ctx: AppContext): RequestHandler {
  const actor = requireActor(ctx);
  const admin = requirePlatformAdmin();
  return (req, res, next) => {
    if (holdsLocalToken(ctx, req)) return next();
    actor(req, res, (err?: unknown) => (err ? next(err) : admin(req, res, next)));
  };
}

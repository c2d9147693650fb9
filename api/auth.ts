/** Authentication middleware: every request that reaches a route behind it has `req.actor`. */
import type { RequestHandler } from "express";
import { authenticate } from "../core/auth/authenticate";
import { AppError } from "../core/errors";
import type { AppContext } from "./context";
import { credentialsOf } from "./http";

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

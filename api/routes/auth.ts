/** Browser sign-in (RUN-6): an HttpOnly, SameSite=Strict cookie holding a random token. */
import { Router, type Response } from "express";
import { z } from "zod";
import { login, logout } from "../../core/accounts/login-sessions";
import { idString, textString } from "../../core/boundary";
import type { AppContext } from "../context";
import { isAppError } from "../../core/errors";
import { clientIp, limitsOf, parseWith, readCookie, route, SESSION_COOKIE } from "../http";

const LoginBody = z.strictObject({
  email: idString(320).min(3),
  password: textString(1024).min(1),
});

function clearCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "strict", secure: ctx.config.COOKIE_SECURE, path: "/" });
}

export function authRoutes(ctx: AppContext): Router {
  const r = Router();
  r.post(
    "/api/v1/auth/login",
    route(async (req, res) => {
      const body = parseWith(LoginBody, req.body);
      // Rate limits (core/rate-limit.ts): a blocked account+client or client is refused before the password is checked.
      const limits = limitsOf(ctx).login;
      const ip = clientIp(req);
      await limits.check(body.email, ip);
      let s: Awaited<ReturnType<typeof login>>;
      try {
        s = await login(ctx.db, ctx.clock, { ...body, ttlHours: ctx.config.LOGIN_SESSION_TTL_HOURS });
      } catch (err) {
        if (isAppError(err, "invalid_credentials")) await limits.failed(body.email, ip);
        throw err;
      }
      await limits.succeeded(body.email, ip);
      res.cookie(SESSION_COOKIE, s.token, {
        httpOnly: true,
        sameSite: "strict",
        secure: ctx.config.COOKIE_SECURE,
        path: "/",
        expires: s.expiresAt,
      });
      res.json({ user_id: s.userId, expires_at: s.expiresAt.toISOString() });
    }),
  );
  r.post(
    "/api/v1/auth/logout",
    route(async (req, res) => {
      const token = readCookie(req, SESSION_COOKIE);
      if (token) await logout(ctx.db, ctx.clock, token);
      clearCookie(ctx, res);
      res.status(204).end();
    }),
  );
  return r;
}

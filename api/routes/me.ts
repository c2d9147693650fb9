import { Router } from "express";
import type { AppContext } from "../context";
import { requireActor } from "../auth";
import { actorOf, route } from "../http";

/** `GET /api/v1/me`: who the credentials are. No secrets, no key material. */
export function meRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get(
    "/api/v1/me",
    requireActor(ctx),
    route((req, res) => {
      const a = actorOf(req);
      res.json({
        user: { id: a.userId, email: a.email, is_platform_admin: a.isPlatformAdmin },
        organization: { id: a.orgId, name: a.orgName },
        role: a.role,
        auth: a.kind,
      });
    }),
  );
  return r;
}

import { Router } from "express";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { route } from "../http";
import { AppError } from "../../core/errors";

export function healthRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  r.get(
    "/readyz",
    route(async (_req, res) => {
      try {
        await sql`select 1`.execute(ctx.db);
      } catch (err) {
        throw new AppError("unavailable", { message: "The database is not reachable.", cause: err });
      }
      res.json({ status: "ready" });
    }),
  );
  return r;
}

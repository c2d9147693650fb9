/** Endpoints that were removed answer 410 with what replaced them. */
import { Router } from "express";
import { AppError } from "../../core/errors";

export function removedRoutes(): Router {
  const r = Router();
  // The old repository offload endpoint: conversations never silently become shared repository memory.
  r.post("/api/v1/repos/:repo/offload", (_req, _res, next) => next(new AppError("gone", { message: "This endpoint has been removed; use POST /session-memory/offload." })));
  return r;
}

/**
 * Snapshot uploads (WRK-2): `POST /api/v1/repos/{repo}/uploads` with the
 * archive as the raw body (tar, tar.gz or zip, told apart by its first bytes;
 * at most INGEST_MAX_UPLOAD_BYTES, 0 turns uploads off). Behind
 * requireExecution() and the repository's write permission — both checked
 * before the body is read. 201 `{upload_id, format, size, sha256,
 * expires_at}`; then `POST /api/v1/repos/{repo}/ingest {"upload_id": …}` from
 * the same session ingests it.
 */
import express, { Router } from "express";
import { authorizeRepo } from "../../core/authorize";
import { AppError } from "../../core/errors";
import { storeUpload } from "../../core/ingest/uploads";
import type { AppContext } from "../context";
import { executionOf, requireExecution } from "../execution";
import { route } from "../http";

export function uploadRoutes(ctx: AppContext): Router {
  const r = Router();
  const limit = ctx.config.INGEST_MAX_UPLOAD_BYTES;
  r.post(
    "/api/v1/repos/:repo/uploads",
    requireExecution(ctx),
    (req, res, next) => {
      if (limit === 0) return next(new AppError("forbidden", { message: "Snapshot uploads are turned off on this server." }));
      const { actor } = executionOf(req);
      authorizeRepo(ctx.db, { orgId: actor.orgId, userId: actor.userId }, String(req.params.repo), "write")
        .then((repo) => {
          res.locals.repoId = repo.repoId;
          next();
        })
        .catch(next);
    },
    express.raw({ type: () => true, limit: Math.max(1, limit) }),
    route(async (req, res) => {
      const body = req.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError("unsupported_archive");
      res.status(201).json(await storeUpload(ctx.db, ctx.clock, executionOf(req).identity, String(res.locals.repoId), body));
    }),
  );
  return r;
}

/**
 * Snapshot uploads (WRK-2). `POST /api/v1/repos/{repo}/uploads` with the
 * archive as the raw body (tar, tar.gz or zip, told apart by its first bytes;
 * Content-Type application/octet-stream, an archive type or none — JSON, forms
 * and text are 415 naming the types it takes; at most INGEST_MAX_UPLOAD_BYTES,
 * a 413 names it; 0 turns uploads off). Behind
 * requireExecution() and the repository's write permission — both checked
 * before the body is read. 201 `{upload_id, format, size, sha256,
 * expires_at}`; then `POST /api/v1/repos/{repo}/ingest {"upload_id": …}` from
 * the same session ingests it. `GET …/uploads` lists this session's live
 * uploads for the repository (metadata only), `DELETE …/uploads/{id}` discards
 * one (204); another session's upload is `upload_not_found` either way.
 */
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { authorizeRepo } from "../../core/authorize";
import { AppError } from "../../core/errors";
import { discardUpload, listUploads, storeUpload } from "../../core/ingest/uploads";
import type { AppContext } from "../context";
import { executionOf, requireExecution } from "../execution";
import { limitsOf, route } from "../http";
import { archiveTooLarge, ARCHIVE_TYPES, fromBodyParser, notAnArchive } from "../body-errors";

export function uploadRoutes(ctx: AppContext): Router {
  const r = Router();
  const limit = ctx.config.INGEST_MAX_UPLOAD_BYTES;
  const raw = express.raw({ type: () => true, limit: Math.max(1, limit) });
  /** Repository write, before anything else (and before an upload's body is read). */
  const repoWrite = (req: Request, res: Response, next: NextFunction) => {
    const { actor } = executionOf(req);
    authorizeRepo(ctx.db, { orgId: actor.orgId, userId: actor.userId }, String(req.params.repo), "write")
      .then((repo) => {
        res.locals.repoId = repo.repoId;
        next();
      })
      .catch(next);
  };
  r.get(
    "/api/v1/repos/:repo/uploads",
    requireExecution(ctx),
    repoWrite,
    route(async (req, res) => {
      res.json({ uploads: await listUploads(ctx.db, executionOf(req).identity, String(res.locals.repoId), ctx.clock.now()) });
    }),
  );
  r.delete(
    "/api/v1/repos/:repo/uploads/:id",
    requireExecution(ctx),
    repoWrite,
    route(async (req, res) => {
      await discardUpload(ctx.db, executionOf(req).identity, String(res.locals.repoId), String(req.params.id), ctx.clock.now());
      res.status(204).end();
    }),
  );
  r.post(
    "/api/v1/repos/:repo/uploads",
    requireExecution(ctx),
    (_req, _res, next) => next(limit === 0 ? new AppError("forbidden", { message: "Snapshot uploads are turned off on this server." }) : undefined),
    // The raw archive bytes, not JSON or a form: refused before anything is counted or read.
    (req, _res, next) => next(req.headers["content-type"] === undefined || req.is(ARCHIVE_TYPES) !== false ? undefined : notAnArchive()),
    // Uploads per session (core/rate-limit.ts), before the body is read.
    (req, _res, next) => {
      const { identity } = executionOf(req);
      limitsOf(ctx).uploads.consume(`${identity.tenant_id}:${identity.session_id}`).then(() => next(), next);
    },
    repoWrite,
    (req, res, next) => raw(req, res, (err?: unknown) => next(err === undefined ? undefined : (fromBodyParser(err, archiveTooLarge) ?? err))),
    route(async (req, res) => {
      const body = req.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError("unsupported_archive");
      res.status(201).json(await storeUpload(ctx.db, ctx.clock, executionOf(req).identity, String(res.locals.repoId), body));
    }),
  );
  return r;
}

/**
 * Snapshot uploads (WRK-2): an archive (tar, tar.gz or zip, told apart by its
 * first bytes) as the raw body of `POST /api/v1/repos/{repo}/uploads` — the
 * REST mounter refuses other content types (415) and bodies over
 * INGEST_MAX_UPLOAD_BYTES (413), and 0 turns uploads off (403); the
 * repository's write permission and the per-session upload rate are checked
 * before the body is read. 201 `{upload_id, format, size, sha256,
 * expires_at}`; then `POST /api/v1/repos/{repo}/ingest {"upload_id": …}` from
 * the same session ingests it. The list shows this session's live uploads for
 * the repository (metadata only); discard removes one. Another session's
 * upload is `upload_not_found` either way.
 */
import { z } from "zod";
import { idString } from "../core/boundary";
import { AppError } from "../core/errors";
import { discardUpload, listUploads, storeUpload } from "../core/ingest/uploads";
import { defineOperation } from "./operation";
import { repoRef } from "./schemas";

const UPLOADS = "/api/v1/repos/:repo/uploads";

const uploadInfo = z.object({
  upload_id: z.string(),
  format: z.enum(["tar", "tar.gz", "zip"]),
  size: z.number().int(),
  sha256: z.string(),
  expires_at: z.string(),
});

export const uploadSnapshot = defineOperation({
  name: "uploads.create",
  title: "Upload a snapshot archive",
  description:
    "Stores a repository snapshot archive (tar, tar.gz or zip; the raw request body, Content-Type application/octet-stream) for this " +
    "session, to be ingested with POST /api/v1/repos/{repo}/ingest {\"upload_id\"}. Answers {upload_id, format, size, sha256, expires_at}.",
  input: { repo: repoRef },
  output: uploadInfo,
  level: "write",
  rateLimited: true,
  http: [{ method: "post", path: UPLOADS, status: 201, raw: "archive" }],
  async run(call) {
    const { stores, clock, limits } = call.services;
    const identity = call.auth.identity;
    // Uploads per session (core/rate-limit.ts), before the body is read.
    if (!limits) throw new AppError("internal", { message: "Rate limits are not configured." });
    await limits.uploads.consume(`${identity.tenant_id}:${identity.session_id}`);
    const body = await call.body?.();
    if (!body || body.length === 0) throw new AppError("unsupported_archive");
    return storeUpload(stores.uploads, clock, identity, call.repo!.repoId, body);
  },
});

export const listSnapshotUploads = defineOperation({
  name: "uploads.list",
  title: "List this session's uploads",
  description: "Lists this session's live snapshot uploads for the repository (metadata only): {uploads: [{upload_id, format, size, sha256, expires_at}]}.",
  input: { repo: repoRef },
  output: z.object({ uploads: z.array(uploadInfo) }),
  level: "write",
  http: [{ method: "get", path: UPLOADS }],
  mcp: { tool: "list_uploads", readOnly: true },
  run: async (call) => ({ uploads: await listUploads(call.services.stores.uploads, call.auth.identity, call.repo!.repoId, call.services.clock.now()) }),
});

export const discardSnapshotUpload = defineOperation({
  name: "uploads.discard",
  title: "Discard an upload",
  description: "Discards one of this session's snapshot uploads before it is ingested.",
  input: { repo: repoRef, upload_id: idString().describe("The upload's id.") },
  output: null,
  level: "write",
  errors: ["upload_not_found"],
  http: [{ method: "delete", path: `${UPLOADS}/:upload_id` }],
  mcp: { tool: "discard_upload", destructive: true, idempotent: true },
  async run(call, input) {
    await discardUpload(call.services.stores.uploads, call.auth.identity, call.repo!.repoId, input.upload_id, call.services.clock.now());
    return null;
  },
});

/**
 * Uploaded snapshot archives (WRK-2): a tar, tar.gz or zip stored in the
 * database (so any worker process can read it) and owned by the uploading
 * execution identity — only an ingest job of that same session, for that same
 * repository, can use it; anyone else gets `upload_not_found`. An upload can be
 * ingested once: the successful ingest (in the job's fenced persist) marks it
 * ingested, and from then on it is the repository's last snapshot — the one fix
 * jobs of that repository work on (workers/pools/fix.ts) — kept until
 * INGEST_UPLOAD_TTL_MS after that ingest, until a newer upload of the repository
 * is ingested (which replaces it), or until its session ends. A live upload lives
 * until INGEST_UPLOAD_TTL_MS passes or its session ends (the cleanup sweep's
 * "ingest-uploads" cleaner), whichever comes first. Bounded per session and per
 * tenant, checked under the organisation row lock so racing uploads cannot
 * overshoot.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Clock } from "../clock";
import { AppError, limitError } from "../errors";
import type { Identity } from "../execution/identity";
import { INGEST_MAX_UPLOAD_BYTES_PER_TENANT, INGEST_MAX_UPLOADS_PER_SESSION, INGEST_UPLOAD_TTL_MS } from "../limits";
import type { CleanupTarget, SessionCleaner } from "../retention/cleaners";
import type { ArchiveFormat, StoredUpload, UploadStore } from "./upload-store";

export interface UploadInfo {
  upload_id: string;
  format: ArchiveFormat;
  size: number;
  sha256: string;
  expires_at: string;
}

/** The format from the first bytes (never from a file name or Content-Type); null when none of ours. */
export function sniffFormat(b: Uint8Array): ArchiveFormat | null {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return "tar.gz";
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6))) return "zip";
  if (b.length >= 262 && Buffer.from(b.subarray(257, 262)).toString("latin1") === "ustar") return "tar";
  return null;
}

const UPLOAD_ID = /^upl_[0-9a-f]{32}$/;

export async function storeUpload(uploads: UploadStore, clock: Clock, identity: Identity, repoId: string, content: Buffer): Promise<UploadInfo> {
  const format = sniffFormat(content);
  if (!format) throw new AppError("unsupported_archive");
  const now = clock.now();
  const row = {
    id: `upl_${randomUUID().replaceAll("-", "")}`,
    tenant_id: identity.tenant_id,
    subject_id: identity.subject_id,
    session_id: identity.session_id,
    repo_id: repoId,
    format,
    size: content.length,
    sha256: createHash("sha256").update(content).digest("hex"),
    content,
    created_at: now,
    expires_at: new Date(now.getTime() + INGEST_UPLOAD_TTL_MS),
  };
  // Checked under the organisation's row lock: the bounds cannot be overshot by racing uploads.
  await uploads.insert(row, (live) => {
    if (live.mine >= INGEST_MAX_UPLOADS_PER_SESSION) throw limitError("uploads_per_session", INGEST_MAX_UPLOADS_PER_SESSION);
    if (live.bytes + content.length > INGEST_MAX_UPLOAD_BYTES_PER_TENANT) throw limitError("upload_bytes_per_tenant", INGEST_MAX_UPLOAD_BYTES_PER_TENANT);
  });
  return { upload_id: row.id, format, size: row.size, sha256: row.sha256, expires_at: row.expires_at.toISOString() };
}

/** The upload ID checked before any read: anything not of its shape is nobody's upload. */
function checkedId(uploadId: string): string {
  if (!UPLOAD_ID.test(uploadId)) throw new AppError("upload_not_found");
  return uploadId;
}

/** The upload, if it belongs to this identity and repository and has not expired; otherwise `upload_not_found`. */
export async function findUpload(uploads: UploadStore, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<StoredUpload> {
  const row = await uploads.findOwn({ identity, repoId, now }, checkedId(uploadId));
  if (!row) throw new AppError("upload_not_found");
  return row;
}

/** The submission-time check: the same rules, without reading the content. */
export async function checkUpload(uploads: UploadStore, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<void> {
  if (!(await uploads.hasOwn({ identity, repoId, now }, checkedId(uploadId)))) throw new AppError("upload_not_found");
}

/** This session's live uploads for the repository, newest first: metadata only. */
export async function listUploads(uploads: UploadStore, identity: Identity, repoId: string, now: Date): Promise<UploadInfo[]> {
  const rows = await uploads.listOwn({ identity, repoId, now }, INGEST_MAX_UPLOADS_PER_SESSION);
  return rows.map((r) => ({ upload_id: r.id, format: r.format, size: r.size, sha256: r.sha256, expires_at: r.expires_at.toISOString() }));
}

/** Discards one of this session's uploads; `upload_not_found` for anything else. */
export async function discardUpload(uploads: UploadStore, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<void> {
  const id = checkedId(uploadId);
  if (!(await uploads.hasOwn({ identity, repoId, now }, id))) throw new AppError("upload_not_found");
  await uploads.remove(id);
}

/**
 * Consumed: called inside the ingest job's fenced persist (`h`, its transaction), so it happens only with a
 * successful ingest. The upload becomes the repository's last snapshot (kept INGEST_UPLOAD_TTL_MS from now);
 * the one it replaces is deleted.
 */
export async function markIngested<H>(uploads: UploadStore<H>, h: H, repoId: string, uploadId: string, now: Date): Promise<void> {
  await uploads.markIngested(h, repoId, uploadId, now, new Date(now.getTime() + INGEST_UPLOAD_TTL_MS));
}

/** The repository's last ingested snapshot upload, if it is still kept (any session of the repository's writers may use it). */
export async function findIngestedUpload(uploads: UploadStore, repoId: string, uploadId: string, now: Date): Promise<StoredUpload | undefined> {
  if (!UPLOAD_ID.test(uploadId)) return undefined;
  return uploads.findIngested(repoId, uploadId, now);
}

/** RET-1: an ended session's uploads go with it; expired ones go on every sweep. Bounded batches. */
export function uploadsCleaner(uploads: UploadStore): SessionCleaner {
  const purge = async (which: { session: CleanupTarget } | { before: Date }, limit: number) => {
    const n = await uploads.purge(which, limit);
    return { done: n < limit, removed: n };
  };
  return {
    name: "ingest-uploads",
    purgeSession: (t: CleanupTarget, { limit }) => purge({ session: t }, limit),
    purgeExpired: (now, { limit }) => purge({ before: now }, limit),
  };
}

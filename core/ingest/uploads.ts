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
import type { Db, Tx } from "../../db/schema";
import { inTransaction } from "../transaction";
import type { Clock } from "../clock";
import { AppError, limitError } from "../errors";
import type { Identity } from "../execution/identity";
import { INGEST_MAX_UPLOAD_BYTES_PER_TENANT, INGEST_MAX_UPLOADS_PER_SESSION, INGEST_UPLOAD_TTL_MS } from "../limits";
import type { CleanupTarget, SessionCleaner } from "../retention/cleaners";

export type ArchiveFormat = "tar" | "tar.gz" | "zip";

export interface UploadInfo {
  upload_id: string;
  format: ArchiveFormat;
  size: number;
  sha256: string;
  expires_at: string;
}

export interface StoredUpload {
  id: string;
  format: ArchiveFormat;
  content: Uint8Array;
}

/** The format from the first bytes (never from a file name or Content-Type); null when none of ours. */
export function sniffFormat(b: Uint8Array): ArchiveFormat | null {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return "tar.gz";
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6))) return "zip";
  if (b.length >= 262 && Buffer.from(b.subarray(257, 262)).toString("latin1") === "ustar") return "tar";
  return null;
}

const UPLOAD_ID = /^upl_[0-9a-f]{32}$/;

export async function storeUpload(db: Db, clock: Clock, identity: Identity, repoId: string, content: Buffer): Promise<UploadInfo> {
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
  await inTransaction(db, async (tx) => {
    // One writer per organisation at a time: the bounds below cannot be overshot by racing uploads.
    await tx.selectFrom("organizations").select("id").where("id", "=", identity.tenant_id).forUpdate().executeTakeFirstOrThrow();
    const live = await tx
      .selectFrom("ingest_uploads")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<string>("size"), eb.lit(0)).as("bytes"),
        eb.fn.countAll<string>().filterWhere((w) => w.and([w("session_id", "=", identity.session_id), w("ingested_at", "is", null)])).as("mine"),
      ])
      .where("tenant_id", "=", identity.tenant_id)
      .where("expires_at", ">", now)
      .executeTakeFirstOrThrow();
    if (Number(live.mine) >= INGEST_MAX_UPLOADS_PER_SESSION) throw limitError("uploads_per_session", INGEST_MAX_UPLOADS_PER_SESSION);
    if (Number(live.bytes) + content.length > INGEST_MAX_UPLOAD_BYTES_PER_TENANT) throw limitError("upload_bytes_per_tenant", INGEST_MAX_UPLOAD_BYTES_PER_TENANT);
    await tx.insertInto("ingest_uploads").values(row).execute();
  });
  return { upload_id: row.id, format, size: row.size, sha256: row.sha256, expires_at: row.expires_at.toISOString() };
}

/** The rows this identity may use for this repository: its own session's, not expired. */
function mine(db: Db | Tx, identity: Identity, repoId: string, now: Date) {
  return db
    .selectFrom("ingest_uploads")
    .where("tenant_id", "=", identity.tenant_id)
    .where("subject_id", "=", identity.subject_id)
    .where("session_id", "=", identity.session_id)
    .where("repo_id", "=", repoId)
    .where("ingested_at", "is", null)
    .where("expires_at", ">", now);
}

function ownUploads(db: Db | Tx, identity: Identity, repoId: string, uploadId: string, now: Date) {
  if (!UPLOAD_ID.test(uploadId)) throw new AppError("upload_not_found");
  return mine(db, identity, repoId, now).where("id", "=", uploadId);
}

/** The upload, if it belongs to this identity and repository and has not expired; otherwise `upload_not_found`. */
export async function findUpload(db: Db | Tx, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<StoredUpload> {
  const row = await ownUploads(db, identity, repoId, uploadId, now).select(["id", "format", "content"]).executeTakeFirst();
  if (!row) throw new AppError("upload_not_found");
  return row;
}

/** The submission-time check: the same rules, without reading the content. */
export async function checkUpload(db: Db | Tx, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<void> {
  if (!(await ownUploads(db, identity, repoId, uploadId, now).select("id").executeTakeFirst())) throw new AppError("upload_not_found");
}

/** This session's live uploads for the repository, newest first: metadata only. */
export async function listUploads(db: Db, identity: Identity, repoId: string, now: Date): Promise<UploadInfo[]> {
  const rows = await mine(db, identity, repoId, now)
    .select(["id", "format", "size", "sha256", "expires_at"])
    .orderBy("created_at", "desc")
    .limit(INGEST_MAX_UPLOADS_PER_SESSION)
    .execute();
  return rows.map((r) => ({ upload_id: r.id, format: r.format, size: r.size, sha256: r.sha256, expires_at: r.expires_at.toISOString() }));
}

/** Discards one of this session's uploads; `upload_not_found` for anything else. */
export async function discardUpload(db: Db, identity: Identity, repoId: string, uploadId: string, now: Date): Promise<void> {
  const own = await ownUploads(db, identity, repoId, uploadId, now).select("id").executeTakeFirst();
  if (!own) throw new AppError("upload_not_found");
  await db.deleteFrom("ingest_uploads").where("id", "=", own.id).execute();
}

/**
 * Consumed: called inside the ingest job's fenced persist, so it happens only with a successful ingest.
 * The upload becomes the repository's last snapshot (kept INGEST_UPLOAD_TTL_MS from now); the one it
 * replaces is deleted.
 */
export async function markIngested(tx: Tx, repoId: string, uploadId: string, now: Date): Promise<void> {
  await tx
    .updateTable("ingest_uploads")
    .set({ ingested_at: now, expires_at: new Date(now.getTime() + INGEST_UPLOAD_TTL_MS) })
    .where("id", "=", uploadId)
    .execute();
  await tx.deleteFrom("ingest_uploads").where("repo_id", "=", repoId).where("ingested_at", "is not", null).where("id", "<>", uploadId).execute();
}

/** The repository's last ingested snapshot upload, if it is still kept (any session of the repository's writers may use it). */
export async function findIngestedUpload(db: Db | Tx, repoId: string, uploadId: string, now: Date): Promise<StoredUpload | undefined> {
  if (!UPLOAD_ID.test(uploadId)) return undefined;
  return db
    .selectFrom("ingest_uploads")
    .select(["id", "format", "content"])
    .where("id", "=", uploadId)
    .where("repo_id", "=", repoId)
    .where("ingested_at", "is not", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

/** RET-1: an ended session's uploads go with it; expired ones go on every sweep. Bounded batches. */
export function uploadsCleaner(db: Db): SessionCleaner {
  const purge = async (where: (qb: ReturnType<typeof base>) => ReturnType<typeof base>, limit: number) => {
    const ids = (await where(base()).select("id").limit(limit).execute()).map((r) => r.id);
    if (ids.length > 0) await db.deleteFrom("ingest_uploads").where("id", "in", ids).execute();
    return { done: ids.length < limit, removed: ids.length };
  };
  const base = () => db.selectFrom("ingest_uploads");
  return {
    name: "ingest-uploads",
    purgeSession: (t: CleanupTarget, { limit }) => purge((qb) => qb.where("tenant_id", "=", t.tenant_id).where("session_id", "=", t.session_id), limit),
    purgeExpired: (now, { limit }) => purge((qb) => qb.where("expires_at", "<=", now), limit),
  };
}

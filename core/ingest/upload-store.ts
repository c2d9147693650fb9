/**
 * What uploaded snapshot archives need of the relational store (db/sql/uploads/ implements it; main/
 * wires it). The rules — who may use an upload, the bounds, how long it is kept — are uploads.ts; the
 * store reads and writes rows. `H` is the transaction of an ingest's fenced finish.
 */
import type { Identity } from "../execution/identity";
import type { CleanupTarget } from "../retention/cleaners";

export type ArchiveFormat = "tar" | "tar.gz" | "zip";

/** An upload as stored. */
export interface UploadRow {
  id: string;
  tenant_id: string;
  subject_id: string;
  session_id: string;
  repo_id: string;
  format: ArchiveFormat;
  size: number;
  sha256: string;
  content: Uint8Array;
  created_at: Date;
  expires_at: Date;
}

/** An upload with the bytes a worker extracts. */
export interface StoredUpload {
  id: string;
  format: ArchiveFormat;
  content: Uint8Array;
}

/** What an identity may use: its own session's uploads for one repository, not ingested, not expired by `now`. */
export interface OwnUploads {
  identity: Identity;
  repoId: string;
  now: Date;
}

export interface UploadStore<H = unknown> {
  /**
   * Inserts `row` under the organisation's row lock (one writer per organisation at a time), after
   * `check` has seen the organisation's live bytes and this session's live uploads (it throws to refuse).
   */
  insert(row: UploadRow, check: (live: { bytes: number; mine: number }) => void): Promise<void>;
  /** One of `own`'s uploads, with its bytes. */
  findOwn(own: OwnUploads, uploadId: string): Promise<StoredUpload | undefined>;
  /** Whether `uploadId` is one of `own`'s uploads. */
  hasOwn(own: OwnUploads, uploadId: string): Promise<boolean>;
  /** `own`'s uploads, newest first, at most `limit`: metadata only. */
  listOwn(own: OwnUploads, limit: number): Promise<Array<Pick<UploadRow, "id" | "format" | "size" | "sha256" | "expires_at">>>;
  /** Deletes one upload. */
  remove(uploadId: string): Promise<void>;
  /** In `h`: the upload becomes the repository's last ingested snapshot, kept until `expiresAt`; the one it replaces is deleted. */
  markIngested(h: H, repoId: string, uploadId: string, now: Date, expiresAt: Date): Promise<void>;
  /** The repository's last ingested snapshot, if it is this upload and still kept at `now`. */
  findIngested(repoId: string, uploadId: string, now: Date): Promise<StoredUpload | undefined>;
  /** Deletes at most `limit` uploads of an ended session, or expired by `before`; answers how many. */
  purge(which: { session: CleanupTarget } | { before: Date }, limit: number): Promise<number>;
}

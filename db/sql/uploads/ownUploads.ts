/**
 * ownUploads: the reads of an identity's own uploads for one repository — its own session's, not
 * ingested, not expired: one with its bytes (findOwnUpload), whether one is (hasOwnUpload), the list
 * (listOwnUploads). One statement each, over one shared condition.
 */
import type { OwnUploads, StoredUpload, UploadRow } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";

function mine(db: Db, o: OwnUploads) {
  return db
    .selectFrom("ingest_uploads")
    .where("tenant_id", "=", o.identity.tenant_id)
    .where("subject_id", "=", o.identity.subject_id)
    .where("session_id", "=", o.identity.session_id)
    .where("repo_id", "=", o.repoId)
    .where("ingested_at", "is", null)
    .where("expires_at", ">", o.now);
}

export async function findOwnUpload(db: Db, o: OwnUploads, uploadId: string): Promise<StoredUpload | undefined> {
  return mine(db, o).where("id", "=", uploadId).select(["id", "format", "content"]).executeTakeFirst();
}

export async function hasOwnUpload(db: Db, o: OwnUploads, uploadId: string): Promise<boolean> {
  return (await mine(db, o).where("id", "=", uploadId).select("id").executeTakeFirst()) !== undefined;
}

export async function listOwnUploads(db: Db, o: OwnUploads, limit: number): Promise<Array<Pick<UploadRow, "id" | "format" | "size" | "sha256" | "expires_at">>> {
  return mine(db, o).select(["id", "format", "size", "sha256", "expires_at"]).orderBy("created_at", "desc").limit(limit).execute();
}

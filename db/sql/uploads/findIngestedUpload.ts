/** findIngestedUpload: the repository's last ingested snapshot, if it is this upload and still kept at `now`. */
import type { StoredUpload } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";

export async function findIngestedUpload(db: Db, repoId: string, uploadId: string, now: Date): Promise<StoredUpload | undefined> {
  return db
    .selectFrom("ingest_uploads")
    .select(["id", "format", "content"])
    .where("id", "=", uploadId)
    .where("repo_id", "=", repoId)
    .where("ingested_at", "is not", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

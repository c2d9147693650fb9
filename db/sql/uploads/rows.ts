/**
 * ownUploads: the rows an identity may use for one repository — its own session's, not ingested, not
 * expired — as one condition the reads of findOwnUpload, hasOwnUpload and listOwnUploads share.
 */
import type { OwnUploads } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";

export function ownUploads(db: Db, o: OwnUploads) {
  return db
    .selectFrom("ingest_uploads")
    .where("tenant_id", "=", o.identity.tenant_id)
    .where("subject_id", "=", o.identity.subject_id)
    .where("session_id", "=", o.identity.session_id)
    .where("repo_id", "=", o.repoId)
    .where("ingested_at", "is", null)
    .where("expires_at", ">", o.now);
}

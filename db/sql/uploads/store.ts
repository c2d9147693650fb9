/** The uploads' store (core/ingest/upload-store.ts) over the relational database: the verbs beside it. */
import type { UploadStore } from "../../../core/ingest/upload-store";
import type { Db, Tx } from "../../schema";
import { deleteUpload } from "./deleteUpload";
import { findIngestedUpload } from "./findIngestedUpload";
import { insertUpload } from "./insertUpload";
import { markIngested } from "./markIngested";
import { findOwnUpload } from "./findOwnUpload";
import { hasOwnUpload } from "./hasOwnUpload";
import { listOwnUploads } from "./listOwnUploads";
import { purgeUploads } from "./purgeUploads";

export function uploadStore(db: Db): UploadStore<Tx> {
  return {
    insert: (row, check) => insertUpload(db, row, check),
    findOwn: (own, uploadId) => findOwnUpload(db, own, uploadId),
    hasOwn: (own, uploadId) => hasOwnUpload(db, own, uploadId),
    listOwn: (own, limit) => listOwnUploads(db, own, limit),
    remove: (uploadId) => deleteUpload(db, uploadId),
    markIngested: (tx, repoId, uploadId, now, expiresAt) => markIngested(tx, repoId, uploadId, now, expiresAt),
    findIngested: (repoId, uploadId, now) => findIngestedUpload(db, repoId, uploadId, now),
    purge: (which, limit) => purgeUploads(db, which, limit),
  };
}

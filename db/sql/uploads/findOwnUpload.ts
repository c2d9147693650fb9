/** findOwnUpload: one of an identity's own uploads (./rows.ts), with its bytes. */
import type { OwnUploads, StoredUpload } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";
import { ownUploads } from "./rows";

export async function findOwnUpload(db: Db, o: OwnUploads, uploadId: string): Promise<StoredUpload | undefined> {
  return ownUploads(db, o).where("id", "=", uploadId).select(["id", "format", "content"]).executeTakeFirst();
}

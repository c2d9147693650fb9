/** hasOwnUpload: whether an upload is one of an identity's own (./rows.ts), without reading its bytes. */
import type { OwnUploads } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";
import { ownUploads } from "./rows";

export async function hasOwnUpload(db: Db, o: OwnUploads, uploadId: string): Promise<boolean> {
  return (await ownUploads(db, o).where("id", "=", uploadId).select("id").executeTakeFirst()) !== undefined;
}

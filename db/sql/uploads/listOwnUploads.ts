/** listOwnUploads: an identity's own uploads (./rows.ts), newest first, at most `limit`: metadata only. */
import type { OwnUploads, UploadRow } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";
import { ownUploads } from "./rows";

export async function listOwnUploads(db: Db, o: OwnUploads, limit: number): Promise<Array<Pick<UploadRow, "id" | "format" | "size" | "sha256" | "expires_at">>> {
  return ownUploads(db, o).select(["id", "format", "size", "sha256", "expires_at"]).orderBy("created_at", "desc").limit(limit).execute();
}

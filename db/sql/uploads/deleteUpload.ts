/** deleteUpload: removes one upload by its ID. */
import type { Db } from "../../schema";

export async function deleteUpload(db: Db, uploadId: string): Promise<void> {
  await db.deleteFrom("ingest_uploads").where("id", "=", uploadId).execute();
}

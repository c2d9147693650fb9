/**
 * markIngested: in the ingest's fenced finish, the upload becomes the repository's last ingested
 * snapshot (kept until `expiresAt`) and the one it replaces is deleted.
 */
import type { Tx } from "../../schema";

export async function markIngested(tx: Tx, repoId: string, uploadId: string, now: Date, expiresAt: Date): Promise<void> {
  await tx.updateTable("ingest_uploads").set({ ingested_at: now, expires_at: expiresAt }).where("id", "=", uploadId).execute();
  await tx.deleteFrom("ingest_uploads").where("repo_id", "=", repoId).where("ingested_at", "is not", null).where("id", "<>", uploadId).execute();
}

/** writeParseCache: in an ingest's fenced finish, writes the rows of files parsed this time (untagged) and deletes those of deleted files. */
import type { ParseCacheRow } from "../../../core/ingest/parse-cache-store";
import type { Tx } from "../../schema";
import { cacheRows, ROWS_PER_STATEMENT } from "./rows";

export async function writeParseCache(tx: Tx, repoId: string, rows: readonly ParseCacheRow[], deleted: readonly string[], now: Date): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await tx
      .insertInto("repo_ingest_files")
      .values(cacheRows(repoId, rows.slice(i, i + ROWS_PER_STATEMENT), now, null))
      .onConflict((oc) =>
        oc.columns(["repo_id", "path"]).doUpdateSet((eb) => ({
          sha256: eb.ref("excluded.sha256"),
          parser: eb.ref("excluded.parser"),
          parsed: eb.ref("excluded.parsed"),
          updated_at: eb.ref("excluded.updated_at"),
          gen: null,
        })),
      )
      .execute();
  }
  for (let i = 0; i < deleted.length; i += ROWS_PER_STATEMENT) {
    await tx.deleteFrom("repo_ingest_files").where("repo_id", "=", repoId).where("path", "in", deleted.slice(i, i + ROWS_PER_STATEMENT)).execute();
  }
}

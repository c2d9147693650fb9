/**
 * stageParseCache: inside an ingest's short fenced step, inserts the rows whose path has none yet,
 * tagged with the ingest's generation (invisible until it publishes); answers the paths that do have
 * one (written in the finish by writeParseCache).
 */
import type { ParseCacheRow } from "../../../core/ingest/parse-cache-store";
import type { Tx } from "../../schema";
import { cacheRows, ROWS_PER_STATEMENT } from "./rows";

export async function stageParseCache(tx: Tx, repoId: string, gen: string, rows: readonly ParseCacheRow[], now: Date): Promise<string[]> {
  const taken: string[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const inserted = await tx.insertInto("repo_ingest_files").values(cacheRows(repoId, chunk, now, gen)).onConflict((oc) => oc.columns(["repo_id", "path"]).doNothing()).returning("path").execute();
    const fresh = new Set(inserted.map((r) => r.path));
    for (const u of chunk) if (!fresh.has(u.path)) taken.push(u.path);
  }
  return taken;
}

/** readParseCache: a repository's visible parse cache rows — untagged, or staged by a published generation. */
import { sql } from "kysely";
import type { ParseCacheRow } from "../../../core/ingest/parse-cache-store";
import type { Db } from "../../schema";

export async function readParseCache(db: Db, repoId: string): Promise<ParseCacheRow[]> {
  return db
    .selectFrom("repo_ingest_files")
    .select(["path", "sha256", "parser", "parsed"])
    .where("repo_id", "=", repoId)
    // Visible rows only: untagged, or staged by a published generation (db/graph/postgres/generations.ts visibleRow).
    .where(sql<boolean>`(gen is null or gen in (select g.id from repo_graph_gens g where g.published_at is not null))`)
    .execute();
}

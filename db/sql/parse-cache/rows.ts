/** The parse cache's rows as written: at most ROWS_PER_STATEMENT per INSERT or DELETE, `parsed` as JSON. */
import type { ParseCacheRow } from "../../../core/ingest/parse-cache-store";

export const ROWS_PER_STATEMENT = 200;

export const cacheRows = (repoId: string, rows: readonly ParseCacheRow[], now: Date, gen: string | null) =>
  rows.map((r) => ({ repo_id: repoId, path: r.path, sha256: r.sha256, parser: r.parser, parsed: JSON.stringify(r.parsed), updated_at: now, gen }));

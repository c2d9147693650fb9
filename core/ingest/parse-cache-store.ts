/**
 * What incremental ingest needs of the relational store (db/sql/parse-cache/ implements it; main/ wires
 * it): the parse cache's rows, one per parsed file of a repository's last successful ingest. Which files
 * to parse again is incremental.ts; the store reads and writes rows. `H` is the transaction of an
 * ingest's fenced step or finish.
 */

/** One file's cache row: the hash of the text it was parsed from, the parser, what it found (JSON). */
export interface ParseCacheRow {
  path: string;
  sha256: string;
  parser: string;
  parsed: unknown;
}

export interface ParseCacheStore<H = unknown> {
  /** The repository's visible rows: untagged, or staged by a published generation. */
  read(repoId: string): Promise<ParseCacheRow[]>;
  /** In `h`: inserts the rows whose path has none yet, tagged with generation `gen`; answers the paths that had one. */
  stage(h: H, repoId: string, gen: string, rows: readonly ParseCacheRow[], now: Date): Promise<string[]>;
  /** In `h`: writes `rows` (replacing a path's row, untagged) and deletes the rows of `deleted`. */
  write(h: H, repoId: string, rows: readonly ParseCacheRow[], deleted: readonly string[], now: Date): Promise<void>;
}

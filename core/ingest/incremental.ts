/**
 * Incremental ingest (WRK-2): each parsed file of a repository's last
 * successful ingest is kept in `repo_ingest_files` with the SHA-256 of the
 * text it was parsed from and the parser version. The next ingest parses
 * only files whose hash (or the parser) changed or that are new; the others
 * reuse what was found last time. The graph is still built from every file
 * (resolution of imports and calls needs them all), so a deleted file's nodes
 * and edges are pruned as before, and its cache row is removed.
 *
 * Reads happen in the job's `run`; writes are fenced: an ingest that did not
 * commit leaves the cache as it was. On the relational store the rows of new
 * paths are staged under the ingest's generation before its finish (invisible
 * until it publishes: db/graph/postgres/generations.ts) and only the rows that
 * replace or delete an existing path are written in the finish.
 *
 * Inputs: the walked files; the cache rows. Output: ParsedFile per file and
 * the counts the job reports (`files_parsed`, `files_unchanged`, `files_deleted`).
 */
import { createHash } from "node:crypto";
import { giveTurn } from "../turn";
import type { ParseCacheStore } from "./parse-cache-store";
import type { ParsedFile } from "./parse";
import { isParsable, parseSyntax, SYNTAX_PARSER } from "./syntax";
import type { WalkedFile } from "./walk";

export interface CacheRow {
  sha256: string;
  parser: string;
  parsed: ParsedFile | null;
}

export interface IncrementalParse {
  files: Array<{ path: string; parsed: ParsedFile | null }>;
  parsedCount: number;
  unchangedCount: number;
  /** Rows to write: files parsed this time. */
  upserts: Array<{ path: string; sha256: string; parsed: ParsedFile | null }>;
  /** Cached paths no longer in the snapshot (or no longer parsable). */
  deleted: string[];
}

/** Progress is reported at most this often while parsing. */
const PROGRESS_EVERY_MS = 50;

export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

export async function readParseCache(cache: ParseCacheStore, repoId: string): Promise<Map<string, CacheRow>> {
  const rows = await cache.read(repoId);
  return new Map(rows.map((r) => [r.path, { sha256: r.sha256, parser: r.parser, parsed: (r.parsed as ParsedFile | null) ?? null }]));
}

/**
 * Parses what changed. `progress(done, total)` is called as files are done (at most every
 * PROGRESS_EVERY_MS, and once at the end); `signal` stops it between files.
 */
export async function parseChanged(
  walked: WalkedFile[],
  cache: Map<string, CacheRow>,
  o: { signal?: AbortSignal; progress?: (done: number, total: number) => void; parse?: (file: string, text: string) => Promise<ParsedFile | null> } = {},
): Promise<IncrementalParse> {
  const parse = o.parse ?? parseSyntax;
  const out: IncrementalParse = { files: [], parsedCount: 0, unchangedCount: 0, upserts: [], deleted: [] };
  const present = new Set<string>();
  let last = performance.now();
  for (const [i, f] of walked.entries()) {
    if (o.signal?.aborted) throw o.signal.reason instanceof Error ? o.signal.reason : new Error("aborted");
    if (f.text === null || !isParsable(f.path)) {
      out.files.push({ path: f.path, parsed: null });
    } else {
      present.add(f.path);
      const sha = sha256Hex(f.text);
      const hit = cache.get(f.path);
      if (hit && hit.sha256 === sha && hit.parser === SYNTAX_PARSER) {
        out.files.push({ path: f.path, parsed: hit.parsed });
        out.unchangedCount++;
      } else {
        const parsed = await parse(f.path, f.text);
        out.files.push({ path: f.path, parsed });
        out.upserts.push({ path: f.path, sha256: sha, parsed });
        out.parsedCount++;
      }
    }
    // The event loop gets its turn (requests, lease renewal, cancels) between files (core/turn.ts).
    if (performance.now() - last >= PROGRESS_EVERY_MS) {
      o.progress?.(i + 1, walked.length);
      last = performance.now();
    }
    await giveTurn();
  }
  o.progress?.(walked.length, walked.length);
  for (const p of cache.keys()) if (!present.has(p)) out.deleted.push(p);
  return out;
}

const cacheRows = (upserts: IncrementalParse["upserts"]) => upserts.map((u) => ({ path: u.path, sha256: u.sha256, parser: SYNTAX_PARSER, parsed: u.parsed }));

/**
 * Staged half (inside the caller's short fenced step `h`): the rows of `upserts` whose path has no
 * row yet, tagged with the ingest's generation. Returns the paths that do have one (written by
 * `writeParseCache` in the finish).
 */
export async function stageParseCache<H>(cache: ParseCacheStore<H>, h: H, repoId: string, gen: string, upserts: IncrementalParse["upserts"], now: Date): Promise<string[]> {
  return cache.stage(h, repoId, gen, cacheRows(upserts), now);
}

/** The persist half (in the fenced finish `h`): the rows of files parsed this time, and the removal of deleted ones. */
export async function writeParseCache<H>(cache: ParseCacheStore<H>, h: H, repoId: string, r: Pick<IncrementalParse, "upserts" | "deleted">, now: Date): Promise<void> {
  await cache.write(h, repoId, cacheRows(r.upserts), r.deleted, now);
}

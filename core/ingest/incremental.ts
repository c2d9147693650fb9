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
import { sql } from "kysely";
import type { Db, Tx } from "../../db/schema";
import { giveTurn } from "../turn";
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

const WRITE_CHUNK = 200;
/** Progress is reported at most this often while parsing. */
const PROGRESS_EVERY_MS = 50;

export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

export async function readParseCache(db: Db, repoId: string): Promise<Map<string, CacheRow>> {
  const rows = await db
    .selectFrom("repo_ingest_files")
    .select(["path", "sha256", "parser", "parsed"])
    .where("repo_id", "=", repoId)
    // Visible rows only: untagged, or staged by a published generation (db/graph/postgres/generations.ts visibleRow).
    .where(sql<boolean>`(gen is null or gen in (select g.id from repo_graph_gens g where g.published_at is not null))`)
    .execute();
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

const cacheRows = (repoId: string, upserts: IncrementalParse["upserts"], now: Date, gen: string | null) =>
  upserts.map((u) => ({ repo_id: repoId, path: u.path, sha256: u.sha256, parser: SYNTAX_PARSER, parsed: JSON.stringify(u.parsed), updated_at: now, gen }));

/**
 * Staged half (inside the caller's short fenced step): the rows of `upserts` whose path has no
 * row yet, tagged with the ingest's generation. Returns the paths that do have one (written by
 * `writeParseCache` in the finish).
 */
export async function stageParseCache(tx: Tx, repoId: string, gen: string, upserts: IncrementalParse["upserts"], now: Date): Promise<string[]> {
  const taken: string[] = [];
  for (let i = 0; i < upserts.length; i += WRITE_CHUNK) {
    const chunk = upserts.slice(i, i + WRITE_CHUNK);
    const inserted = await tx.insertInto("repo_ingest_files").values(cacheRows(repoId, chunk, now, gen)).onConflict((oc) => oc.columns(["repo_id", "path"]).doNothing()).returning("path").execute();
    const fresh = new Set(inserted.map((r) => r.path));
    for (const u of chunk) if (!fresh.has(u.path)) taken.push(u.path);
  }
  return taken;
}

/** The persist half: the rows of files parsed this time, and the removal of deleted ones. */
export async function writeParseCache(tx: Tx, repoId: string, r: Pick<IncrementalParse, "upserts" | "deleted">, now: Date): Promise<void> {
  for (let i = 0; i < r.upserts.length; i += WRITE_CHUNK) {
    const rows = cacheRows(repoId, r.upserts.slice(i, i + WRITE_CHUNK), now, null);
    await tx
      .insertInto("repo_ingest_files")
      .values(rows)
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
  for (let i = 0; i < r.deleted.length; i += WRITE_CHUNK) {
    await tx.deleteFrom("repo_ingest_files").where("repo_id", "=", repoId).where("path", "in", r.deleted.slice(i, i + WRITE_CHUNK)).execute();
  }
}

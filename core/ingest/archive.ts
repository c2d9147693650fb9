/**
 * Extracts an uploaded snapshot archive (tar, tar.gz, zip) into an empty
 * directory for the ingest walk (WRK-2), refusing what could escape or
 * exhaust the machine:
 *  - only regular files and directories are written: symlinks, hard links,
 *    devices and FIFOs are skipped and counted;
 *  - an entry whose path is absolute, has a `..` segment, a NUL, a backslash
 *    or is deeper than INGEST_MAX_DEPTH is skipped and counted (node-tar and
 *    yauzl refuse most of these themselves; this is the same rule for both);
 *  - files over INGEST_MAX_FILE_BYTES are skipped (the walk would not parse
 *    them); at most INGEST_MAX_ARCHIVE_ENTRIES entries and
 *    INGEST_MAX_EXTRACT_BYTES bytes are written — beyond that the rest is
 *    left out and `truncated` is set; a tar.gz stops being decompressed there
 *    (gzip bombs), a zip's declared sizes are checked against its data (yauzl's
 *    validateEntrySizes);
 *  - ownership, modes beyond rw-r--r--/rwxr-xr-x and mtimes are not restored.
 * A damaged archive is `invalid_archive` (422), never a retry. Entry names
 * never appear in errors.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import yauzl from "yauzl";
import { AppError } from "../errors";
import { INGEST_MAX_ARCHIVE_ENTRIES, INGEST_MAX_DEPTH, INGEST_MAX_EXTRACT_BYTES, INGEST_MAX_FILE_BYTES } from "../limits";
import type { ArchiveFormat } from "./upload-store";

export interface Extracted {
  files: number;
  bytes: number;
  skipped_links: number;
  skipped_unsafe: number;
  skipped_large: number;
  truncated: boolean;
}

/** The one path rule for every format: a relative POSIX path inside the snapshot, not too deep. null = unsafe. */
export function safeEntryPath(raw: string): string | null {
  if (raw.length === 0 || raw.length > 4096 || raw.includes("\0") || raw.includes("\\")) return null;
  const trimmed = raw.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  if (trimmed === "" || trimmed === ".") return "";
  if (trimmed.startsWith("/") || /^[A-Za-z]:/.test(trimmed)) return null;
  const parts = trimmed.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..") || parts.length > INGEST_MAX_DEPTH) return null;
  return parts.join("/");
}

class Budget {
  readonly out: Extracted = { files: 0, bytes: 0, skipped_links: 0, skipped_unsafe: 0, skipped_large: 0, truncated: false };
  #entries = 0;
  /** Counts an entry left out for being a link or unsafe; always false ("do not write it"). */
  skip(why: "skipped_links" | "skipped_unsafe"): false {
    this.out[why]++;
    return false;
  }
  /** Counts one entry; false when the archive has given all it may. */
  entry(): boolean {
    if (++this.#entries > INGEST_MAX_ARCHIVE_ENTRIES) this.out.truncated = true;
    return !this.out.truncated;
  }
  /** A regular file of `size` bytes: write it? */
  file(size: number): boolean {
    if (size > INGEST_MAX_FILE_BYTES) {
      this.out.skipped_large++;
      return false;
    }
    if (this.out.bytes + size > INGEST_MAX_EXTRACT_BYTES) {
      this.out.truncated = true;
      return false;
    }
    this.out.bytes += size;
    this.out.files++;
    return true;
  }
}

export async function extractArchive(content: Uint8Array, format: ArchiveFormat, dest: string, signal: AbortSignal): Promise<Extracted> {
  const budget = new Budget();
  try {
    if (format === "zip") await extractZip(Buffer.from(content.buffer, content.byteOffset, content.byteLength), dest, budget, signal);
    else await extractTar(content, format === "tar.gz", dest, budget, signal);
  } catch (err) {
    if (signal.aborted) throw new AppError("canceled");
    if (err instanceof AppError) throw err;
    throw new AppError("invalid_archive", { cause: err });
  }
  if (signal.aborted) throw new AppError("canceled");
  return budget.out;
}

/** Stops the decompressed stream at the extraction bound plus headroom for headers and skipped entries. */
function cap(limit: number, budget: Budget): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (seen >= limit) return done();
      const take = Math.min(chunk.length, limit - seen);
      seen += take;
      if (seen >= limit) budget.out.truncated = true;
      done(null, take === chunk.length ? chunk : chunk.subarray(0, take));
    },
  });
}

async function extractTar(content: Uint8Array, gzipped: boolean, dest: string, budget: Budget, signal: AbortSignal): Promise<void> {
  const unpack = tar.x({
    cwd: dest,
    strict: false,
    preserveOwner: false,
    noMtime: true,
    noChmod: true,
    maxDepth: INGEST_MAX_DEPTH + 1,
    filter: (p, entry) => {
      if (signal.aborted || !budget.entry()) return false;
      const type = "type" in entry ? entry.type : "File";
      if (type === "SymbolicLink" || type === "Link") return budget.skip("skipped_links");
      if (type !== "File" && type !== "OldFile" && type !== "ContiguousFile" && type !== "Directory") return budget.skip("skipped_unsafe");
      if (safeEntryPath(p) === null) return budget.skip("skipped_unsafe");
      return type === "Directory" ? true : budget.file(Number(entry.size ?? 0));
    },
    // node-tar's own refusals (absolute paths, `..`, paths through links) arrive as warnings.
    onwarn: (code) => {
      if (code === "TAR_ENTRY_ERROR" || code === "TAR_ENTRY_UNSUPPORTED") budget.skip("skipped_unsafe");
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    unpack.on("close", resolve);
    unpack.on("error", reject);
  });
  const source = Readable.from([Buffer.from(content.buffer, content.byteOffset, content.byteLength)]);
  const limit = INGEST_MAX_EXTRACT_BYTES + INGEST_MAX_ARCHIVE_ENTRIES * 1024;
  const sink = unpack as unknown as NodeJS.WritableStream;
  try {
    await Promise.all([gzipped ? pipeline(source, createGunzip(), cap(limit, budget), sink, { signal }) : pipeline(source, sink, { signal }), done]);
  } catch (err) {
    // We cut the stream at the bound: the entry it cut through is incomplete, by our doing. Keep what was written.
    if (!(budget.out.truncated && (err as { code?: unknown }).code === "TAR_BAD_ARCHIVE")) throw err;
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

async function extractZip(buf: Buffer, dest: string, budget: Budget, signal: AbortSignal): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const next = () => (signal.aborted ? zip.close() : zip.readEntry());
      zip.on("error", reject);
      zip.on("end", resolve);
      zip.on("close", resolve);
      zip.on("entry", (entry: yauzl.Entry) => {
        void (async () => {
          if (!budget.entry()) return zip.close();
          const kind = (entry.externalFileAttributes >>> 16) & S_IFMT;
          const isDir = entry.fileName.endsWith("/") || kind === S_IFDIR;
          const rel = safeEntryPath(entry.fileName);
          const skipped = kind === S_IFLNK ? "skipped_links" : (kind !== 0 && kind !== S_IFREG && kind !== S_IFDIR) || rel === null ? "skipped_unsafe" : null;
          if (skipped || rel === null) {
            budget.skip(skipped ?? "skipped_unsafe");
            return next();
          }
          const target = path.join(dest, rel);
          if (isDir) {
            await mkdir(target, { recursive: true });
            return next();
          }
          if (!budget.file(entry.uncompressedSize)) return budget.out.truncated ? zip.close() : next();
          await mkdir(path.dirname(target), { recursive: true });
          const stream = await new Promise<Readable>((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s))));
          // `wx`: a second entry with the same name does not overwrite the first.
          await pipeline(stream, createWriteStream(target, { flags: "wx", mode: 0o644 }), { signal }).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== "EEXIST") throw err;
            budget.skip("skipped_unsafe");
          });
          next();
        })().catch(reject);
      });
      next();
    });
  } finally {
    zip.close();
  }
}

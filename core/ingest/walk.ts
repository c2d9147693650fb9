/**
 * A bounded walk of one snapshot directory (WRK-2). Breadth-first, sorted, so
 * the same tree always yields the same files. Symlinks are never followed
 * (a link could leave the allowed root); vendored and generated directories
 * are skipped. Stops at INGEST_MAX_FILES files, INGEST_MAX_TOTAL_BYTES read,
 * INGEST_MAX_DEPTH levels; a file over INGEST_MAX_FILE_BYTES or with a NUL
 * byte (binary) is listed without its text.
 */
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import { INGEST_MAX_DEPTH, INGEST_MAX_FILE_BYTES, INGEST_MAX_FILES, INGEST_MAX_TOTAL_BYTES } from "../limits";

export interface WalkedFile {
  /** Relative to the snapshot root, `/`-separated. */
  path: string;
  bytes: number;
  /** null for binary or oversize files. */
  text: string | null;
}

export interface WalkResult {
  files: WalkedFile[];
  bytesRead: number;
  truncated: boolean;
}

export interface WalkLimits {
  maxFiles: number;
  maxTotalBytes: number;
  maxFileBytes: number;
  maxDepth: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = {
  maxFiles: INGEST_MAX_FILES,
  maxTotalBytes: INGEST_MAX_TOTAL_BYTES,
  maxFileBytes: INGEST_MAX_FILE_BYTES,
  maxDepth: INGEST_MAX_DEPTH,
};

const SKIP_DIRS = new Set([".git", ".hg", ".svn", "node_modules", "vendor", "dist", "build", "target", "out", ".venv", "venv", "__pycache__", ".next", ".cache", ".codesynapse"]);

async function readBounded(file: string, max: number): Promise<Buffer | null> {
  const fh = await open(file, "r");
  try {
    const st = await fh.stat();
    if (st.size > max) return null;
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await fh.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function walkSnapshot(root: string, limits: WalkLimits = DEFAULT_WALK_LIMITS, signal?: AbortSignal): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  let bytesRead = 0;
  let truncated = false;
  let queue: Array<{ dir: string; rel: string; depth: number }> = [{ dir: root, rel: "", depth: 0 }];
  while (queue.length > 0 && !truncated) {
    const next: typeof queue = [];
    for (const d of queue) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
      const entries = (await readdir(d.dir, { withFileTypes: true }).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const rel = d.rel ? `${d.rel}/${e.name}` : e.name;
        if (e.isSymbolicLink()) continue;
        if (e.isDirectory()) {
          if (SKIP_DIRS.has(e.name)) continue;
          if (d.depth + 1 >= limits.maxDepth) {
            truncated = true;
            continue;
          }
          next.push({ dir: path.join(d.dir, e.name), rel, depth: d.depth + 1 });
          continue;
        }
        if (!e.isFile()) continue;
        if (files.length >= limits.maxFiles) {
          truncated = true;
          break;
        }
        const remaining = limits.maxTotalBytes - bytesRead;
        const buf = await readBounded(path.join(d.dir, e.name), Math.min(limits.maxFileBytes, Math.max(0, remaining))).catch(() => null);
        if (buf === null && remaining < limits.maxFileBytes) truncated = true;
        const text = buf && !buf.subarray(0, 8192).includes(0) ? buf.toString("utf8") : null;
        if (buf) bytesRead += buf.length;
        files.push({ path: rel, bytes: buf?.length ?? 0, text });
      }
      if (truncated) break;
    }
    queue = next;
  }
  return { files, bytesRead, truncated };
}

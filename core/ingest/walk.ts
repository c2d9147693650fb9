/**
 * A bounded walk of one snapshot directory (WRK-2). Breadth-first, sorted, so
 * the same tree always yields the same files. Symlinks are never followed
 * (a link could leave the allowed root); vendored and generated directories
 * are skipped, and so is whatever git ignores: every `.gitignore` on the way
 * down (and `.git/info/exclude`) is read with the `ignore` package and applied
 * as git does — a deeper file's rules win over its parents', `!pattern`
 * re-includes, an ignored directory is not entered. Files a `.gitattributes`
 * marks `linguist-generated` or `linguist-vendored` (set, or `=true`: the marks
 * GitHub and code search use) are left out the same way: a generated API client
 * or a vendored library is not the project's own code, and its names crowd the
 * project's out of recall. Stops at INGEST_MAX_FILES files, INGEST_MAX_TOTAL_BYTES read,
 * INGEST_MAX_DEPTH levels; a file over INGEST_MAX_FILE_BYTES or with a NUL
 * byte (binary) is listed without its text.
 */
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
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
  /** Files and directories left out by .gitignore rules or marked generated or vendored in .gitattributes. */
  ignored: number;
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

/** The ignore files of one directory and the directories above it, outermost first. */
type IgnoreChain = Array<{ base: string; ig: Ignore }>;

const GITIGNORE_MAX_BYTES = 256 * 1024;

function isIgnored(chain: IgnoreChain, rel: string, dir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of chain) {
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = ig.test(dir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/** The chain for a directory: its parent's, plus its own `.gitignore` (and, at the root, `.git/info/exclude`) and the generated or vendored patterns of its `.gitattributes`. */
async function chainFor(parent: IgnoreChain, dir: string, rel: string): Promise<IgnoreChain> {
  const sources = [path.join(dir, ".gitignore"), ...(rel === "" ? [path.join(dir, ".git", "info", "exclude")] : [])];
  let rules = "";
  for (const f of sources) {
    const buf = await readBounded(f, GITIGNORE_MAX_BYTES).catch(() => null);
    if (buf) rules += `${buf.toString("utf8")}\n`;
  }
  const attributes = await readBounded(path.join(dir, ".gitattributes"), GITIGNORE_MAX_BYTES).catch(() => null);
  if (attributes) rules += generatedPatterns(attributes.toString("utf8")).join("\n");
  return rules.trim() === "" ? parent : [...parent, { base: rel, ig: ignore().add(rules) }];
}

/** A `.gitattributes` line's attribute that marks its files as not the project's own code. */
const NOT_OWN_CODE = /^linguist-(generated|vendored)(=true)?$/;

/**
 * The patterns of a `.gitattributes` whose files are marked generated or vendored. Its patterns
 * match as `.gitignore`'s do (relative to the file's directory, `**` across levels); a later
 * `-linguist-generated` or `=false` is not read as a re-include (it could re-include a file git ignores).
 */
export function generatedPatterns(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("[")) continue;
    const [pattern, ...attrs] = line.split(/\s+/);
    if (pattern && !pattern.startsWith("!") && attrs.some((a) => NOT_OWN_CODE.test(a))) out.push(pattern);
  }
  return out;
}

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
  let ignored = 0;
  let queue: Array<{ dir: string; rel: string; depth: number; chain: IgnoreChain }> = [{ dir: root, rel: "", depth: 0, chain: [] }];
  while (queue.length > 0 && !truncated) {
    const next: typeof queue = [];
    for (const d of queue) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
      const entries = (await readdir(d.dir, { withFileTypes: true }).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const chain = await chainFor(d.chain, d.dir, d.rel);
      for (const e of entries) {
        const rel = d.rel ? `${d.rel}/${e.name}` : e.name;
        if (e.isSymbolicLink()) continue;
        if ((e.isDirectory() || e.isFile()) && !SKIP_DIRS.has(e.name) && chain.length > 0 && isIgnored(chain, rel, e.isDirectory())) {
          ignored++;
          continue;
        }
        if (e.isDirectory()) {
          if (SKIP_DIRS.has(e.name)) continue;
          if (d.depth + 1 >= limits.maxDepth) {
            truncated = true;
            continue;
          }
          next.push({ dir: path.join(d.dir, e.name), rel, depth: d.depth + 1, chain });
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
  return { files, bytesRead, truncated, ignored };
}

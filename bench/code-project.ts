/**
 * The real TypeScript project the ingest benches read: zod's own source as
 * npm ships it (node_modules/zod/src, every `.ts` but declaration files —
 * 332 files, about 89,000 lines, for zod 4.6.7). BENCH_CODE_DIR points
 * elsewhere (any directory of .ts sources).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { walkSnapshot } from "../core/ingest/walk";

export interface ProjectFile {
  path: string;
  text: string;
}

export function projectDir(): { dir: string; label: string } {
  if (process.env.BENCH_CODE_DIR) return { dir: path.resolve(process.env.BENCH_CODE_DIR), label: process.env.BENCH_CODE_DIR };
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("zod/package.json");
  const version = (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  return { dir: path.join(path.dirname(pkg), "src"), label: `zod@${version} src` };
}

/** The project's .ts files (declaration files excluded), read by the same bounded walk ingest uses. */
export async function projectFiles(dir = projectDir().dir): Promise<ProjectFile[]> {
  const walk = await walkSnapshot(dir);
  const out: ProjectFile[] = [];
  for (const f of walk.files) {
    if (!f.path.endsWith(".ts") || f.path.endsWith(".d.ts")) continue;
    out.push({ path: f.path, text: f.text ?? (await readFile(path.join(dir, f.path), "utf8")) });
  }
  return out;
}

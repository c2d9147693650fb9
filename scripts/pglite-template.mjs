#!/usr/bin/env node
/**
 * The embedded database's cluster template: a PostgreSQL cluster that PGlite's initdb created
 * once, as a gzipped tarball (PGlite's own `dumpDataDir`), written to
 * `<outdir>/pglite-template/pglite-<version>.tar.gz`. A new data directory is then unpacked from
 * it (db/pglite.ts) instead of running initdb in the server: PGlite's initdb runs three WASM
 * instances at once and peaks at 650–950 MB, a one-off cost that belongs to the install, like
 * building a binary, not to every fresh data directory (docs/stores.md#embedded-memory).
 *
 * The file name carries the PGlite version, the one thing its content depends on (initdb's
 * defaults); the server only uses the template of the version it runs, so an upgrade never unpacks
 * an old cluster. A generated template is cached in node_modules/.cache/codesynapse/ (the install
 * it belongs to), so `npm run build` (which `npm start` runs first) makes one once per PGlite
 * version. Run by scripts/build.mjs; standalone:
 *
 *   node scripts/pglite-template.mjs [--outdir DIR]   (default: dist)
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(import.meta.dirname, "..");

/** The installed PGlite's version (its package.json sits above dist/index.js; the package exports no ./package.json). */
export function pgliteVersion() {
  const entry = fileURLToPath(import.meta.resolve("@electric-sql/pglite"));
  return JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")).version;
}

export const templateName = (version) => `pglite-${version}.tar.gz`;

/** Makes the template with PGlite itself: initdb in memory, a checkpoint, `dumpDataDir("gzip")`. */
async function generate(file) {
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await PGlite.create();
  await pg.exec("CHECKPOINT");
  const tarball = await pg.dumpDataDir("gzip");
  await pg.close();
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await tarball.arrayBuffer()));
  renameSync(tmp, file);
}

/** Ensures `<outdir>/pglite-template/<name>`, from the cache when it holds this version's. Returns its path. */
export async function ensureTemplate(outdir) {
  const name = templateName(pgliteVersion());
  const cached = path.join(root, "node_modules", ".cache", "codesynapse", name);
  if (!existsSync(cached)) await generate(cached);
  const dir = path.join(outdir, "pglite-template");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, name);
  // Written under another name and renamed: a server starting meanwhile sees the whole file or none.
  copyFileSync(cached, `${target}.${process.pid}.tmp`);
  renameSync(`${target}.${process.pid}.tmp`, target);
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { outdir: { type: "string" } } });
  const file = await ensureTemplate(path.resolve(root, values.outdir ?? "dist"));
  process.stdout.write(`wrote ${path.relative(root, file)}\n`);
}

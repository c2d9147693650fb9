/**
 * Opening PGlite for the embedded default, sized for one small process (measured by
 * `npm run bench:rss`; docs/stores.md#embedded-memory):
 *
 * - PostgreSQL's memory settings are the small end of sane for a single-connection embedded
 *   database: shared_buffers 16 MB (PostgreSQL's default is 128 MB, which the WASM heap then
 *   keeps resident once touched), wal_buffers 1 MB, work_mem 2 MB, maintenance_work_mem 16 MB,
 *   temp_buffers 2 MB. PGlite's own start parameters come first, unchanged.
 * - A data directory that has no cluster yet gets one unpacked from the cluster template the
 *   build made (scripts/pglite-template.mjs: `dist/pglite-template/pglite-<version>.tar.gz`, of
 *   the running PGlite's version only), so the server never runs initdb: PGlite's initdb runs three
 *   WASM instances at once and peaks at 650–950 MB. The tarball is unpacked on disk by node-tar
 *   (streamed, no WASM) into a scratch directory inside the data directory, then moved into place
 *   with PG_VERSION last, so a start that dies half-way leaves no half cluster that looks whole.
 * - Without a template (a checkout that never ran `npm run build`), initdb runs in a short-lived
 *   child process: the process kept ~400 MB of initdb's WASM instances resident after closing
 *   them; the child exits and takes it along. The server then opens an existing cluster, as on
 *   every later start. In-memory databases (tests) run initdb in-process, as before.
 * - A data directory whose cluster is of another PostgreSQL major (PGlite 0.4 wrote 17; this
 *   PGlite is 18 and cannot open it) is upgraded first, keeping the old cluster as a backup
 *   inside it (db/pglite-upgrade.ts).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import * as tar from "tar";
import { AppError } from "../core/errors";
import { type PGliteUpgrade, upgradeDataDir } from "./pglite-upgrade";

/** The PostgreSQL major of the PGlite this code runs (a new cluster's PG_VERSION; test/integration/pglite-upgrade.test.ts holds it to that). */
export const PG_MAJOR = "18";

export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...["shared_buffers=16MB", "wal_buffers=1MB", "work_mem=2MB", "maintenance_work_mem=16MB", "temp_buffers=2MB"].flatMap((s) => ["-c", s]),
];

/** The running PGlite's version (its package.json sits above dist/index.js; the package exports no ./package.json). */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve("@electric-sql/pglite"));
  return (JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The cluster template for this PGlite version, if the build made one: `pglite-template/` in the
 * build's output directory, found from this module — db/ in a checkout (../dist/), the output
 * directory itself or its chunks/ once bundled.
 */
export function defaultTemplate(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const name = `pglite-${pgliteVersion()}.tar.gz`;
  return [here, path.join(here, ".."), path.join(here, "..", "dist")].map((d) => path.join(d, "pglite-template", name)).find((f) => existsSync(f));
}

/** Unpacks the template into `dir` (see above); PG_VERSION, the mark of a cluster, arrives last. */
async function unpackTemplate(template: string, dir: string): Promise<void> {
  const scratch = path.join(dir, `.pglite-template-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    // dumpDataDir's entries are absolute (/PG_VERSION, /base/…); node-tar strips the leading "/"
    // (TAR_ENTRY_INFO). Any other warning (a bad entry, a truncated file) fails the unpack.
    const problems: string[] = [];
    await tar.x({ file: template, cwd: scratch, onwarn: (code, message) => void (code === "TAR_ENTRY_INFO" || problems.push(`${code}: ${message}`)) });
    if (problems.length > 0) throw new Error(problems.slice(0, 3).join("; "));
    if (!existsSync(path.join(scratch, "PG_VERSION"))) throw new Error(`${template} holds no cluster (no PG_VERSION)`);
    const entries = readdirSync(scratch).sort((a, b) => Number(a === "PG_VERSION") - Number(b === "PG_VERSION"));
    for (const name of entries) {
      rmSync(path.join(dir, name), { recursive: true, force: true });
      renameSync(path.join(scratch, name), path.join(dir, name));
    }
  } catch (err) {
    throw new AppError("internal", { message: "The embedded database could not be created from its template.", cause: err });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs initdb for `dir` in a child process (see above); resolves once the cluster exists. */
async function initDataDir(dir: string): Promise<void> {
  const script = [
    "const { PGlite } = await import(process.argv[1]);",
    "const pg = await PGlite.create(process.argv[2], { startParams: JSON.parse(process.argv[3]) });",
    "await pg.close();",
  ].join("\n");
  const args = ["--input-type=module", "-e", script, import.meta.resolve("@electric-sql/pglite"), dir, JSON.stringify(PGLITE_START_PARAMS)];
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("close", (c) => resolve({ code: c, stderr: err }));
  });
  if (code !== 0 || !existsSync(path.join(dir, "PG_VERSION"))) {
    throw new AppError("internal", { message: "The embedded database could not be initialised.", cause: new Error(stderr) });
  }
}

export interface PGliteOptions {
  /** The cluster template for a new data directory; default {@link defaultTemplate}; null: run initdb. */
  template?: string | null;
  /** Told when an older cluster was upgraded (db/pglite-upgrade.ts), for the log. */
  onUpgrade?: (upgrade: PGliteUpgrade) => void;
}

/** PGlite in `dataDir` (created first when new: from the template, else by initdb), or in memory. */
export async function openPGlite(dataDir: string | undefined, opts: PGliteOptions = {}): Promise<PGlite> {
  if (dataDir === undefined) return PGlite.create({ startParams: PGLITE_START_PARAMS });
  const dir = path.resolve(dataDir);
  const upgraded = await upgradeDataDir(dir, PG_MAJOR, (scratch) => openNewCluster(scratch, opts));
  if (upgraded) opts.onUpgrade?.(upgraded);
  if (!existsSync(path.join(dir, "PG_VERSION"))) await createCluster(dir, opts);
  return PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
}

/** This PGlite on a new cluster in `dir` (an upgrade's target). */
export async function openNewCluster(dir: string, opts: PGliteOptions = {}): Promise<PGlite> {
  await createCluster(dir, opts);
  return PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
}

/** A new cluster in `dir`: from the template, else by initdb (see above). */
async function createCluster(dir: string, opts: PGliteOptions): Promise<void> {
  const template = opts.template === undefined ? defaultTemplate() : opts.template;
  // A build replacing dist/ between the look-up and the unpack takes the template away: initdb then.
  const gone = (err: unknown) => opts.template === undefined && (err as { cause?: NodeJS.ErrnoException }).cause?.code === "ENOENT";
  if (template) await unpackTemplate(template, dir).catch((err: unknown) => (gone(err) ? initDataDir(dir) : Promise.reject(err)));
  else await initDataDir(dir);
}

/**
 * Opening PGlite for the embedded default, sized for one small process (issue 17, measured by
 * `npm run bench:rss`; docs/stores.md#embedded-memory):
 *
 * - PostgreSQL's memory settings are the small end of sane for a single-connection embedded
 *   database: shared_buffers 16 MB (PostgreSQL's default is 128 MB, which the WASM heap then
 *   keeps resident once touched), wal_buffers 1 MB, work_mem 2 MB, maintenance_work_mem 16 MB,
 *   temp_buffers 2 MB. PGlite's own start parameters come first, unchanged.
 * - A data directory that has no cluster yet is initialised (initdb) in a short-lived child
 *   process: PGlite runs initdb in a second WASM instance beside the first and, measured here,
 *   the process keeps ~400 MB of that resident after it is closed and collected. The child exits
 *   and takes it along; the server then opens an existing cluster, as on every later start.
 *   In-memory databases (tests) run initdb in-process, as before.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { AppError } from "../core/errors";

export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...["shared_buffers=16MB", "wal_buffers=1MB", "work_mem=2MB", "maintenance_work_mem=16MB", "temp_buffers=2MB"].flatMap((s) => ["-c", s]),
];

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

/** PGlite in `dataDir` (initialised first when new), or in memory. */
export async function openPGlite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir === undefined) return PGlite.create({ startParams: PGLITE_START_PARAMS });
  const dir = path.resolve(dataDir);
  if (!existsSync(path.join(dir, "PG_VERSION"))) await initDataDir(dir);
  return PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
}

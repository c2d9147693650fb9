/**
 * `codesynapse setup <claude-code|codex|vscode|cursor> [--print] [--dir DIR] [--url URL] [--repo REPO]`:
 * writes (or, with --print, prints) a coding assistant's configuration for this server
 * (main/setup/runtimes.ts). Run again, it changes nothing more; the user's other entries are kept.
 * --print writes nothing and prints each file as setup would create it, after a `# file: PATH` line.
 * The API key is never read into a file: the files name CODESYNAPSE_API_KEY.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SERVER_URL } from "../../api/mcp/server-url";
import { RUNTIMES, type Runtime } from "../hook/payload";
import { planFor, SetupError } from "./runtimes";

export interface SetupIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

async function readIfAny(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Runs setup; 0 when done, 2 on a bad command line, 1 when a file could not be merged or written. */
export async function runSetup(argv: string[], env: NodeJS.ProcessEnv, io: SetupIo, bin = path.resolve(process.argv[1] ?? "bin/codesynapse.js")): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { print: { type: "boolean" }, dir: { type: "string" }, url: { type: "string" }, repo: { type: "string" } },
  });
  const runtime = positionals[0];
  if (!(RUNTIMES as readonly string[]).includes(runtime ?? "")) {
    io.stderr.write(`usage: codesynapse setup <${RUNTIMES.join("|")}> [--print] [--dir DIR] [--url URL] [--repo REPO]\n`);
    return 2;
  }
  const url = String(values.url ?? (env.CODESYNAPSE_URL || DEFAULT_SERVER_URL)).replace(/\/+$/, "");
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
  } catch {
    io.stderr.write("codesynapse setup: the server URL (--url or CODESYNAPSE_URL) is not an http(s) URL\n");
    return 2;
  }
  const files = planFor(runtime as Runtime, {
    url,
    ...(typeof values.repo === "string" ? { repo: values.repo } : {}),
    dir: path.resolve(typeof values.dir === "string" ? values.dir : "."),
    codexHome: env.CODEX_HOME || path.join(homedir(), ".codex"),
    bin,
    node: process.execPath,
  });
  try {
    if (values.print === true) {
      io.stdout.write(files.map((f) => `# file: ${f.path}\n${f.apply(undefined)}`).join("\n"));
      return 0;
    }
    // Every file is merged before any is written: a file that cannot be merged leaves all of them as they were.
    const next = await Promise.all(files.map(async (f) => ({ f, text: f.apply(await readIfAny(f.path)) })));
    for (const { f, text } of next) {
      await mkdir(path.dirname(f.path), { recursive: true });
      const tmp = `${f.path}.codesynapse-${process.pid}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, f.path);
      io.stdout.write(`wrote ${f.path}\n`);
    }
    io.stdout.write("export CODESYNAPSE_API_KEY=csk_… in the environment the assistant starts from; the files name it, never contain it.\n");
    return 0;
  } catch (err) {
    io.stderr.write(`codesynapse setup: ${err instanceof SetupError ? err.message : `failed: ${(err as Error).message}`}\n`);
    return 1;
  }
}

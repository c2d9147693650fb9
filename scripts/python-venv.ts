/**
 * Python for what needs it (the contract fuzzer, the Python client and its
 * generator): a virtual environment under `.venv/<name>` in the checkout
 * (ignored by git), made from a pinned requirements file and made again only
 * when that file changes (a stamp holds its hash), so a second run costs
 * nothing. test/support/python.ts skips a suite without Python (or fails it
 * under REQUIRE_SERVICES=1).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface PythonStatus {
  available: boolean;
  /** The interpreter found (python3 on PATH, or PYTHON). */
  python?: string;
  reason: string;
}

let found: Promise<PythonStatus> | undefined;

/** A Python 3.10 or later with venv, or why there is none. */
export function probePython(): Promise<PythonStatus> {
  found ??= (async () => {
    const python = process.env.PYTHON ?? "python3";
    try {
      const { stdout } = await run(python, ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"]);
      const [major, minor] = stdout.trim().split(".").map(Number);
      if (major! < 3 || (major === 3 && minor! < 10)) return { available: false, reason: `${python} is ${stdout.trim()}; 3.10 or later is needed` };
      return { available: true, python, reason: `${python} ${stdout.trim()}` };
    } catch {
      return { available: false, reason: `no ${python} with the venv module on PATH` };
    }
  })();
  return found;
}

/**
 * The venv `.venv/<name>` with `requirements` (a path from the checkout's root) installed, plus
 * `extra` pip arguments (a local package); made again when either changes. Returns its bin directory.
 */
export async function venv(python: string, name: string, requirements: string, extra: string[] = []): Promise<string> {
  const dir = path.join(ROOT, ".venv", name);
  const bin = path.join(dir, "bin");
  const want = createHash("sha256")
    .update(readFileSync(path.join(ROOT, requirements)))
    .update(JSON.stringify(extra))
    .digest("hex");
  const stamp = path.join(dir, ".codesynapse-stamp");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  await run(python, ["-m", "venv", dir]);
  const pip = (args: string[]) =>
    run(path.join(bin, "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", ...args], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 900_000 });
  // The pinned requirements first (a local package may build with them: --no-build-isolation), then the rest.
  await pip(["-r", path.join(ROOT, requirements)]);
  if (extra.length > 0) await pip(extra);
  writeFileSync(stamp, want);
  return bin;
}

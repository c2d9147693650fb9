/**
 * Python for what needs it (the contract fuzzer, the Python client and its
 * generator): a virtual environment under `.venv/<name>` in the checkout
 * (ignored by git), made from a pinned requirements file and made again only
 * when that file changes (a stamp holds its hash), so a second run costs
 * nothing. test/support/python.ts skips a suite without Python (or fails it
 * under REQUIRE_SERVICES=1).
 *
 * Test files run in parallel processes and several want the same venv: one makes it while
 * the others wait (a lock directory beside it, made atomically by mkdir), then find it made.
 * A venv cannot be made elsewhere and moved (its scripts name their interpreter's path).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  const made = () => existsSync(stamp) && readFileSync(stamp, "utf8") === want;
  if (made()) return bin;
  return withLock(`${dir}.lock`, async () => {
    if (made()) return bin; // another process made it while this one waited
    await makeVenv(python, dir, requirements, extra);
    writeFileSync(stamp, want);
    return bin;
  });
}

/** A lock older than this belongs to a process that died while making the venv: it is taken over. */
const STALE_LOCK_MS = 20 * 60_000;

/** Runs `fn` holding the lock directory `lock` (mkdir is atomic: one process makes it, the others wait). */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = (() => {
        try {
          return Date.now() - statSync(lock).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Makes the venv `dir` afresh: the pinned requirements first (a local package may build with them: --no-build-isolation), then `extra`. */
async function makeVenv(python: string, dir: string, requirements: string, extra: string[]): Promise<void> {
  const bin = path.join(dir, "bin");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  await run(python, ["-m", "venv", dir]);
  const pip = (args: string[]) =>
    run(path.join(bin, "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", ...args], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 900_000 });
  await pip(["-r", path.join(ROOT, requirements)]);
  if (extra.length > 0) await pip(extra);
}

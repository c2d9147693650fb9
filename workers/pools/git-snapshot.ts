/**
 * A shallow git clone for an ingest snapshot (WRK-2), run with the WRK-7
 * subprocess environment: no ambient CODESYNAPSE_* variable, the job's
 * validated identity copied in, no terminal prompt, no system/global git
 * configuration. The URL was checked against INGEST_GIT_ALLOWED first.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { subprocessEnv } from "../subprocess-env";

export const GIT_CLONE_TIMEOUT_MS = 120_000;

export async function cloneSnapshot(url: URL, ref: string | undefined, identity: Identity, signal: AbortSignal): Promise<{ dir: string; dispose(): Promise<void> }> {
  const base = await mkdtemp(path.join(tmpdir(), "codesynapse-ingest-"));
  const dir = path.join(base, "repo");
  const dispose = () => rm(base, { recursive: true, force: true });
  const args = ["-c", "protocol.ext.allow=never", "clone", "--depth", "1", "--no-tags", "--single-branch", ...(ref ? ["--branch", ref] : []), "--", url.href, dir];
  const env = subprocessEnv(identity, process.env, { GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" });
  try {
    await new Promise<void>((resolve, reject) => {
      execFile("git", args, { env, signal, timeout: GIT_CLONE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err) => (err ? reject(err) : resolve()));
    });
  } catch (err) {
    await dispose();
    if (signal.aborted) throw new AppError("canceled");
    // git's output can carry the URL: it is not passed on.
    throw new AppError("unavailable", { message: "The git snapshot could not be fetched.", cause: err });
  }
  return { dir, dispose };
}

/**
 * `git apply --check` of a fix proposal against its snapshot (WRK-5): the
 * patch is fed on stdin, nothing is written. Run with the WRK-7 subprocess
 * environment, no system/global git configuration, and git's repository
 * discovery stopped at the snapshot (GIT_CEILING_DIRECTORIES), so paths are
 * read relative to the snapshot root whether or not it is a git checkout.
 * git refuses paths that leave the root (`../`, absolute) by itself.
 *
 * A patch that does not apply is `patch_does_not_apply` (422). git's own
 * output is not passed on: it can quote file content.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { subprocessEnv } from "../subprocess-env";

export const PATCH_CHECK_TIMEOUT_MS = 30_000;

export async function checkPatchApplies(root: string, patch: string, identity: Identity, signal: AbortSignal): Promise<void> {
  const env = subprocessEnv(identity, process.env, { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CEILING_DIRECTORIES: path.dirname(root) });
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn("git", ["apply", "--check", "-p1", "-"], { cwd: root, env, signal, timeout: PATCH_CHECK_TIMEOUT_MS, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", resolve);
    child.stdin.on("error", () => undefined);
    child.stdin.end(patch);
  }).catch((err: unknown) => {
    if (signal.aborted) throw new AppError("canceled");
    throw new AppError("unavailable", { message: "The patch could not be checked.", cause: err });
  });
  if (code !== 0) throw new AppError("patch_does_not_apply");
}

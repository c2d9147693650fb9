/**
 * The test run's temporary directory (test/support/global-setup.ts): every test file, and every
 * process it starts, writes temporary files under the run's own directory, which the run removes.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

it("temporary files of a test file and of the processes it starts go under the run's own directory", () => {
  const dir = os.tmpdir();
  expect(path.basename(dir)).toMatch(/^codesynapse-test-run-/);
  const child = execFileSync(process.execPath, ["-e", "process.stdout.write(require('node:os').tmpdir())"], { encoding: "utf8" });
  expect(child).toBe(dir);
  const shell = execFileSync("sh", ["-c", 'mktemp -d "${TMPDIR:-/tmp}/probe.XXXXXX"'], { encoding: "utf8" }).trim();
  expect(path.dirname(shell)).toBe(dir);
});

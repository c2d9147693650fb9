/**
 * scripts/python-venv.ts under parallel test files: several processes asking for the same venv
 * at once each get a working one (one makes it, the others wait for its lock), where before the
 * second removed the first's half-made directory. A venv with no requirements keeps it quick.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { probePython, ROOT } from "../../scripts/python-venv";
import { describeWithPython } from "../support/python";

const run = promisify(execFile);
const py = await probePython();

describeWithPython(py, "python venvs made by parallel processes", () => {
  const name = `race-${randomBytes(4).toString("hex")}`;
  const scratch = mkdtempSync(path.join(tmpdir(), "codesynapse-venv-"));
  afterAll(() => {
    rmSync(path.join(ROOT, ".venv", name), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("three processes asking for one new venv at once all get it, made once", { timeout: 180_000 }, async () => {
    const requirements = path.relative(ROOT, path.join(scratch, "requirements.txt"));
    writeFileSync(path.join(ROOT, requirements), "# nothing to install\n");
    const script = `import { venv } from ${JSON.stringify(path.join(ROOT, "scripts/python-venv.ts"))};\nconsole.log(await venv(${JSON.stringify(py.python)}, ${JSON.stringify(name)}, ${JSON.stringify(requirements)}));`;
    const file = path.join(scratch, "make.mts"); // an ES module wherever it sits (top-level await)
    writeFileSync(file, script);
    const tsx = path.join(ROOT, "node_modules/.bin/tsx");
    const outs = await Promise.all([0, 1, 2].map(() => run(tsx, [file], { cwd: ROOT, timeout: 170_000 })));
    const bin = path.join(ROOT, ".venv", name, "bin");
    for (const o of outs) expect(o.stdout.trim()).toBe(bin);
    // The venv works, and no lock is left behind.
    const { stdout } = await run(path.join(bin, "python"), ["-c", "import sys; print(sys.prefix)"]);
    expect(stdout.trim()).toBe(path.join(ROOT, ".venv", name));
    expect(existsSync(path.join(ROOT, ".venv", `${name}.lock`))).toBe(false);
  });
});

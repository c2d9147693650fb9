/**
 * Every entry point — the launcher (`codesynapse …`), `scripts/build.mjs`, `npm run check`'s
 * engines step, `npm start` and `npm test` — refuses a Node.js outside package.json's
 * `engines.node` with one line, before it imports anything that could fail. The entry points
 * run from a staged copy with no node_modules, whose package.json asks for a Node that does not
 * exist yet (so the Node running this test is "unsupported"): a static import of a package
 * before the check would fail there with a stack trace instead of the line. On a supported Node
 * without an install, the build names the missing package in one line too.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, type RunResult } from "../support/process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FILES = ["bin/codesynapse.js", "bin/supported-node.js", "scripts/build.mjs", "scripts/check-engines.mjs", "scripts/pglite-template.mjs"];
const stages: string[] = [];

/** A copy of the entry points and package.json (engines.node as given), nothing installed. */
function stage(enginesNode: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "codesynapse-node-"));
  stages.push(dir);
  for (const f of FILES) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    copyFileSync(path.join(ROOT, f), path.join(dir, f));
  }
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, engines: { node: enginesNode } }, null, 2));
  return dir;
}
afterAll(() => {
  for (const d of stages) rmSync(d, { recursive: true, force: true });
});

/** Runs a command in the stage, on the Node running this test (first on PATH for npm's scripts). */
function run(cwd: string, command: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const began = Date.now();
    const env = cleanEnv({ PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` });
    const child = spawn(command === "node" ? process.execPath : command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - began }));
  });
}

describe("an unsupported Node.js", () => {
  const dir = stage(">=99");
  const refusal = `codesynapse: Node.js ${process.versions.node} is not supported (needs >=99); run the command through \`sh scripts/node.sh\` (it brings Node.js 24) or install Node.js 24 LTS`;

  it.each([
    ["codesynapse start", "node", ["bin/codesynapse.js", "start"]],
    ["codesynapse admin bootstrap", "node", ["bin/codesynapse.js", "admin", "bootstrap", "--org", "A", "--email", "a@a.test", "--repo", "r"]],
    ["codesynapse mcp", "node", ["bin/codesynapse.js", "mcp"]],
    ["scripts/build.mjs", "node", ["scripts/build.mjs"]],
    ["scripts/check-engines.mjs", "node", ["scripts/check-engines.mjs"]],
    ["npm start", "npm", ["--silent", "start"]],
    ["npm test", "npm", ["--silent", "test"]],
  ])("%s: one line, exit 1, nothing else", async (_name, command, args) => {
    const r = await run(dir, command, args);
    expect([r.code, r.stderr, r.stdout]).toEqual([1, `${refusal}\n`, ""]);
  });
});

describe("a supported Node.js before `npm install`", () => {
  const dir = stage(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).engines.node);

  it("`npm start` names the missing build tool in one line, not a stack trace", async () => {
    const r = await run(dir, "npm", ["--silent", "start"]);
    expect([r.code, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toBe("codesynapse: esbuild is not installed; run `npm install` (on Node.js 24: `sh scripts/node.sh npm install`)\n");
  });

  it("the launcher without a build or an install says what to run in one line", async () => {
    const r = await run(dir, "node", ["bin/codesynapse.js", "start"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^codesynapse: dist\/cli\.js is missing; run `npm run build`/)]);
  });
});

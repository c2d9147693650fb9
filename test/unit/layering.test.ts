/**
 * The layering rule (.dependency-cruiser.mjs, docs/architecture.md "Layers") holds: the same
 * `depcruise` command and configuration `npm run check` runs, over a scratch tree laid out like
 * ours (core/, db/, queues/, ops/, api/, workers/, main/ and a node_modules with stand-in
 * driver packages). Every forbidden edge is reported under its rule — a driver reached from
 * core/ through another folder too — and the allowed ones are not.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPCRUISE = path.join(ROOT, "node_modules/.bin/depcruise");
const CONFIG = path.join(ROOT, ".dependency-cruiser.mjs");

/** Scratch sources: path → text. Each file's imports are the edge under test. */
const FILES: Record<string, string> = {
  // Allowed.
  "core/rules.ts": `export interface Store { x: number }\nexport const r = (store: Store) => store.x;\n`,
  "db/schema.ts": `export interface Db { x: number }\n`,
  "db/store.ts": `import pg from "pg";\nimport { r } from "../core/rules";\nexport const s = [pg, r];\n`,
  "queues/submit.ts": `import { Queue } from "bullmq";\nimport { r } from "../core/rules";\nimport type { Db } from "../db/schema";\nexport const q = (db: Db) => [Queue, r, db];\n`,
  "ops/op.ts": `import { q } from "../queues/submit";\nimport { r } from "../core/rules";\nexport const o = [q, r];\n`,
  "api/app.ts": `import express from "express";\nimport { o } from "../ops/op";\nimport type { Db } from "../db/schema";\nexport const a = (db: Db) => [express, o, db];\n`,
  "workers/runner.ts": `import { q } from "../queues/submit";\nimport { r } from "../core/rules";\nexport const w = [q, r];\n`,
  "main/runtime.ts": `import { a } from "../api/app";\nimport { w } from "../workers/runner";\nimport { s } from "../db/store";\nexport const m = [a, w, s];\n`,
  // Forbidden, one edge each (the rule it breaks is in the file name's table below).
  "core/driver.ts": `import { Redis } from "ioredis";\nexport const d = Redis;\n`,
  "core/indirect.ts": `import { s } from "../db/store";\nexport const i = s;\n`,
  "core/wrong-type.ts": `import type { Thing } from "../queues/types";\nexport type T = Thing;\n`,
  "core/table-map.ts": `import type { Db } from "../db/schema";\nexport type D = Db;\n`,
  "queues/types.ts": `export interface Thing { y: string }\n`,
  "db/up.ts": `import { q } from "../queues/submit";\nexport const u = q;\n`,
  "queues/up.ts": `import { w } from "../workers/runner";\nexport const u = w;\n`,
  "ops/http.ts": `import express from "express";\nexport const h = express;\n`,
  "api/job-kinds.ts": `import { w } from "../workers/runner";\nexport const k = w;\n`,
  "api/open.ts": `import { s } from "../db/store";\nexport const o = s;\n`,
  "workers/http.ts": `import { a } from "../api/app";\nexport const h = a;\n`,
  "workers/store.ts": `import { s } from "../db/store";\nexport const t = s;\n`,
  "api/root.ts": `import { m } from "../main/runtime";\nexport const r = m;\n`,
};

const STAND_INS = ["pg", "ioredis", "bullmq", "express", "kysely"];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let dir: string;
let violations: Violation[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "codesynapse-layering-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  for (const name of STAND_INS) {
    mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
    writeFileSync(path.join(dir, "node_modules", name, "package.json"), JSON.stringify({ name, version: "1.0.0", main: "index.js" }));
    writeFileSync(path.join(dir, "node_modules", name, "index.js"), "module.exports = {};\n");
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "scratch", private: true, dependencies: Object.fromEntries(STAND_INS.map((n) => [n, "1.0.0"])) }));
  writeFileSync(path.join(dir, "tsconfig.json"), readFileSync(path.join(ROOT, "tsconfig.json"), "utf8"));
  const { stdout } = await promisify(execFile)(
    DEPCRUISE,
    ["core", "db", "queues", "ops", "api", "workers", "main", "--config", CONFIG, "--no-cache", "--output-type", "json"],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  violations = (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const edges = () => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

describe("the layering rule", () => {
  it("reports every forbidden edge under its rule, and only those", () => {
    expect(edges()).toEqual(
      [
        "core-loads-no-driver: core/driver.ts → node_modules/ioredis/index.js",
        "core-loads-no-driver: core/indirect.ts → node_modules/pg/index.js",
        "core-imports-core: core/indirect.ts → db/store.ts",
        "core-imports-core: core/wrong-type.ts → queues/types.ts",
        "core-imports-core: core/table-map.ts → db/schema.ts",
        "db-implements-core: db/up.ts → queues/submit.ts",
        "queues-below-callers: queues/up.ts → workers/runner.ts",
        "ops-no-transport: ops/http.ts → node_modules/express/index.js",
        "api-not-workers: api/job-kinds.ts → workers/runner.ts",
        "api-no-db-at-run-time: api/open.ts → db/store.ts",
        "workers-below-api: workers/http.ts → api/app.ts",
        "workers-no-db-at-run-time: workers/store.ts → db/store.ts",
        "api-not-workers: api/root.ts → main/runtime.ts",
        "nothing-imports-main: api/root.ts → main/runtime.ts",
      ].sort(),
    );
  });
});

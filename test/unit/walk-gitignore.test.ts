/** The snapshot walk honours .gitignore as git does (core/ingest/walk.ts). */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { walkSnapshot } from "../../core/ingest/walk";
import { writeFixtureRepo } from "../support/fixture-repo";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it("leaves out what .gitignore files (root, nested, .git/info/exclude) ignore; a deeper !rule re-includes; ignored directories are not entered", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "cs-walk-"));
  dirs.push(dir);
  await writeFixtureRepo(dir, {
    ".gitignore": "*.log\ngenerated/\n/secret.ts\nsrc/keep/*.tmp.ts\n",
    ".git/info/exclude": "local-notes.md\n",
    "app.ts": "export const a = 1;\n",
    "debug.log": "x\n",
    "secret.ts": "export const s = 1;\n",
    "local-notes.md": "notes\n",
    "generated/api.ts": "export const g = 1;\n",
    "src/secret.ts": "export const kept = 1;\n",
    "src/keep/x.tmp.ts": "1\n",
    "src/keep/.gitignore": "!x.tmp.ts\nlocal.ts\n",
    "src/keep/local.ts": "1\n",
    "src/keep/ok.ts": "1\n",
  });
  const r = await walkSnapshot(dir);
  expect(r.files.map((f) => f.path).sort()).toEqual([".gitignore", "app.ts", "src/keep/.gitignore", "src/keep/ok.ts", "src/keep/x.tmp.ts", "src/secret.ts"]);
  // debug.log, secret.ts, local-notes.md, generated/ (one directory, not entered), src/keep/local.ts
  expect(r.ignored).toBe(5);
});

it("leaves out what a .gitattributes marks linguist-generated or linguist-vendored (root and nested); other attributes keep their files", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "cs-walk-"));
  dirs.push(dir);
  await writeFixtureRepo(dir, {
    ".gitattributes": "# the API clients are generated\nclients/api/** linguist-generated=true\n*.pb.ts linguist-generated\nthird/** linguist-vendored\n*.png binary\nkept/** linguist-generated=false\n",
    "app.ts": "export const a = 1;\n",
    "clients/api/models.ts": "export const m = 1;\n",
    "clients/hand.ts": "export const h = 1;\n",
    "proto/user.pb.ts": "export const p = 1;\n",
    "third/lib.ts": "export const l = 1;\n",
    "kept/own.ts": "export const k = 1;\n",
    "src/.gitattributes": "gen/** linguist-generated\n",
    "src/gen/out.ts": "export const o = 1;\n",
    "src/main.ts": "export const s = 1;\n",
  });
  const r = await walkSnapshot(dir);
  expect(r.files.map((f) => f.path).sort()).toEqual([".gitattributes", "app.ts", "clients/hand.ts", "kept/own.ts", "src/.gitattributes", "src/main.ts"]);
  // clients/api/models.ts, proto/user.pb.ts, third/lib.ts, src/gen/out.ts
  expect(r.ignored).toBe(4);
});

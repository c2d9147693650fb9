/**
 * Extracting uploaded snapshot archives (core/ingest/archive.ts): what a
 * hostile archive tries — links, `..`, absolute paths, oversized files,
 * garbage — writes nothing outside the snapshot directory and is counted.
 */
import { existsSync } from "node:fs";
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { extractArchive, safeEntryPath } from "../../core/ingest/archive";
import { sniffFormat } from "../../core/ingest/uploads";
import { INGEST_MAX_EXTRACT_BYTES, INGEST_MAX_FILE_BYTES } from "../../core/limits";
import { fixtureTar, forgeTarName, forgeZipName, gzipBomb, tarOf, zipOf } from "../support/archives";
import { FIXTURE_FILES } from "../support/fixture-repo";

let parent: string;
let dest: string;
const signal = new AbortController().signal;

beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), "cs-extract-"));
  dest = path.join(parent, "snapshot");
  await mkdir(dest);
});
afterEach(async () => rm(parent, { recursive: true, force: true }));

async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p, base)));
    else out.push(`${path.relative(base, p)}${e.isFile() ? "" : " (not a file)"}`);
  }
  return out.sort();
}

it("safe entry paths: relative, no `..`, no absolute or drive paths, bounded depth", () => {
  expect(safeEntryPath("./src/a.ts")).toBe("src/a.ts");
  expect(safeEntryPath("src//b/./c.ts")).toBe("src/b/c.ts");
  for (const bad of ["../x", "a/../../x", "/etc/passwd", "C:/x", "a\\..\\x", "a\0b", `${"d/".repeat(40)}f`]) expect(safeEntryPath(bad), bad).toBeNull();
});

it("sniffs the format from the first bytes only", async () => {
  expect(sniffFormat(await fixtureTar(FIXTURE_FILES, true))).toBe("tar.gz");
  expect(sniffFormat(await fixtureTar(FIXTURE_FILES, false))).toBe("tar");
  expect(sniffFormat(await zipOf({ "a.ts": "x" }))).toBe("zip");
  expect(sniffFormat(Buffer.from("{\"not\":\"an archive\"}"))).toBeNull();
});

it("a tar.gz and a zip of the fixture repository extract to exactly its files", async () => {
  const tgz = await extractArchive(await fixtureTar(FIXTURE_FILES), "tar.gz", dest, signal);
  expect(await filesUnder(dest)).toEqual(Object.keys(FIXTURE_FILES).sort());
  expect(tgz).toMatchObject({ files: Object.keys(FIXTURE_FILES).length, skipped_links: 0, skipped_unsafe: 0, skipped_large: 0, truncated: false });
  expect(await readFile(path.join(dest, "src/auth.ts"), "utf8")).toBe(FIXTURE_FILES["src/auth.ts"]);

  const zdest = path.join(parent, "zip");
  await mkdir(zdest);
  const z = await extractArchive(await zipOf(FIXTURE_FILES), "zip", zdest, signal);
  expect(await filesUnder(zdest)).toEqual(Object.keys(FIXTURE_FILES).sort());
  expect(z.files).toBe(Object.keys(FIXTURE_FILES).length);
});

it("tar: symlinks and hard links are not written, oversized files are skipped, the rest is", async () => {
  const archive = await tarOf(async (dir) => {
    await writeFile(path.join(dir, "keep.ts"), "export const a = 1;\n");
    await symlink("/etc", path.join(dir, "etc-link"));
    await symlink("../../../../outside.txt", path.join(dir, "up-link"));
    await writeFile(path.join(dir, "big.bin"), Buffer.alloc(INGEST_MAX_FILE_BYTES + 1, 1));
  }, true);
  const r = await extractArchive(archive, "tar.gz", dest, signal);
  expect(await filesUnder(dest)).toEqual(["keep.ts"]);
  expect(r).toMatchObject({ files: 1, skipped_links: 2, skipped_large: 1 });

  // A hard link (its own archive: node-tar's packer stumbles over a hard link beside symlinks).
  const hdest = path.join(parent, "hard");
  await mkdir(hdest);
  const hard = await tarOf(async (dir) => {
    await writeFile(path.join(dir, "keep.ts"), "x");
    await link(path.join(dir, "keep.ts"), path.join(dir, "hard.ts"));
  }, true);
  const h = await extractArchive(hard, "tar.gz", hdest, signal);
  // One of the two names is stored as the file, the other as a link to it (tar's choice): one is written.
  expect(await filesUnder(hdest)).toHaveLength(1);
  expect(h).toMatchObject({ files: 1, skipped_links: 1 });
});

it("tar: `..` and absolute entry names write nothing outside the snapshot", async () => {
  const plain = await tarOf(async (dir) => {
    await mkdir(path.join(dir, "zz"));
    await writeFile(path.join(dir, "zz/evil.txt"), "escaped");
    await mkdir(path.join(dir, "zzzzzzzz"));
    await writeFile(path.join(dir, "zzzzzzzz/abs.txt"), "escaped");
    await writeFile(path.join(dir, "fine.ts"), "ok");
  }, false);
  const forged = forgeTarName(forgeTarName(plain, "./zz/", "./../"), "./zzzzzzzz", "/tmp/cs-zz");
  const r = await extractArchive(forged, "tar", dest, signal);
  expect(await readdir(parent)).toEqual(["snapshot"]);
  expect(existsSync("/tmp/cs-zz/abs.txt")).toBe(false);
  expect(await filesUnder(dest)).toEqual(["fine.ts"]);
  expect(r.skipped_unsafe).toBeGreaterThanOrEqual(2);
});

it("zip: symlink entries are not written; a forged `..` name is refused as invalid_archive with nothing outside", async () => {
  const r = await extractArchive(await zipOf({ "keep.ts": "ok" }, { "etc-link": "/etc" }), "zip", dest, signal);
  expect(await filesUnder(dest)).toEqual(["keep.ts"]);
  expect(r.skipped_links).toBe(1);

  const zdest = path.join(parent, "zip");
  await mkdir(zdest);
  const forged = forgeZipName(await zipOf({ "zz/evil.txt": "escaped", "fine.ts": "ok" }), "zz/evil", "../evil");
  await expect(extractArchive(forged, "zip", zdest, signal)).rejects.toMatchObject({ code: "invalid_archive" });
  expect((await readdir(parent)).sort()).toEqual(["snapshot", "zip"]);
});

it("a gzip bomb (1 GiB behind ≈1 MB) is decompressed only up to the extraction bound: nothing written, truncated", async () => {
  const bomb = gzipBomb(1);
  expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
  const t0 = performance.now();
  const r = await extractArchive(bomb, "tar.gz", dest, signal);
  const inflated = performance.now() - t0;
  expect(r).toMatchObject({ files: 0, bytes: 0, skipped_large: 1, truncated: true });
  expect(await readdir(dest)).toEqual([]);
  // Stopped near the bound, not at 1 GiB: INGEST_MAX_EXTRACT_BYTES is 128 MiB (a loose bound on time, not a benchmark).
  expect(INGEST_MAX_EXTRACT_BYTES).toBeLessThan(1024 ** 3 / 4);
  expect(inflated).toBeLessThan(60_000);
});

it("garbage is invalid_archive, and its bytes are not quoted", async () => {
  const junk = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from("secret-looking-bytes-that-are-not-gzip")]);
  const err = await extractArchive(junk, "tar.gz", dest, signal).catch((e: unknown) => e as Error);
  expect(err).toMatchObject({ code: "invalid_archive" });
  expect(String((err as Error).message)).not.toContain("secret-looking");
  await expect(extractArchive(Buffer.from("PK\u0003\u0004 not really"), "zip", dest, signal)).rejects.toMatchObject({ code: "invalid_archive" });
});

/** Builds test archives (tar, tar.gz, zip), including hostile ones, in memory. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import yazl from "yazl";
import { writeFixtureRepo } from "./fixture-repo";

async function streamToBuffer(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/** A tar (gzip: tar.gz) of a directory built by `fill`; symlinks are stored as symlinks. */
export async function tarOf(fill: (dir: string) => Promise<void>, gzip: boolean): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), "cs-tar-"));
  try {
    await fill(dir);
    // Written to a file and gzipped here: node-tar's stream output can emit after its end when the tree has a hard link.
    const file = `${dir}.tar`;
    await tar.c({ cwd: dir, file, portable: true }, ["."]);
    const plain = await readFile(file);
    await rm(file, { force: true });
    return gzip ? gzipSync(plain) : plain;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const fixtureTar = (files: Record<string, string>, gzip = true) => tarOf((dir) => writeFixtureRepo(dir, files), gzip);

/** A zip of name → content; `symlinks` are stored as symlink entries pointing at their target. */
export async function zipOf(files: Record<string, string>, symlinks: Record<string, string> = {}): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) z.addBuffer(Buffer.from(text), name);
  for (const [name, target] of Object.entries(symlinks)) z.addBuffer(Buffer.from(target), name, { mode: 0o120777 });
  z.end();
  return streamToBuffer(z.outputStream);
}

/** Renames every occurrence of a same-length name in a zip (local and central headers): a way to forge "../x" entries. */
export function forgeZipName(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error("same length only");
  return Buffer.from(zip.toString("latin1").split(from).join(to), "latin1");
}

/**
 * A gzip bomb: one tar entry declaring `gib` GiB, its zeros spread over many identical gzip
 * members (gunzip reads concatenated members as one stream) — about 1 MB on the wire per GiB.
 */
export function gzipBomb(gib: number): Buffer {
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  const header = new tar.Header({ path: "bomb.bin", mode: 0o644, size: gib * 1024 ** 3, type: "File", mtime: new Date(0) });
  const block = Buffer.alloc(512);
  header.encode(block, 0);
  const member = gzipSync(chunk, { level: 9 });
  return Buffer.concat([gzipSync(block), ...Array.from({ length: gib * 64 }, () => member)]);
}

/** Renames a same-length entry name in an uncompressed tar and fixes each header's checksum. */
export function forgeTarName(tarBuf: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error("same length only");
  const out = Buffer.from(tarBuf);
  for (let off = 0; off + 512 <= out.length; off += 512) {
    const name = out.subarray(off, off + 100).toString("latin1");
    if (!name.includes(from)) continue;
    out.write(name.replace(from, to), off, 100, "latin1");
    out.fill(0x20, off + 148, off + 156);
    let sum = 0;
    for (let i = off; i < off + 512; i++) sum += out[i]!;
    out.write(`${sum.toString(8).padStart(6, "0")}\0 `, off + 148, 8, "latin1");
  }
  return out;
}

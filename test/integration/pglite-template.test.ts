/**
 * A new embedded data directory comes from the build's cluster template (db/pglite.ts,
 * scripts/pglite-template.mjs), not from initdb in the server: the cluster is the template's
 * (same system identifier in every directory made from it), the migrations run on it and its
 * data survives a reopen; a damaged template fails with a clear error and leaves no cluster
 * that looks whole, so the next start with a good one succeeds.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../../db/database";
import { openPGlite, PG_MAJOR, pgliteVersion } from "../../db/pglite";

const ROOT = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "codesynapse-template-"));
let template = "";

beforeAll(() => {
  // The build's template step (from node_modules/.cache when this PGlite version's is there).
  execFileSync(process.execPath, [path.join(ROOT, "scripts/pglite-template.mjs"), "--outdir", path.join(work, "out")], { stdio: "pipe" });
  template = path.join(work, "out", "pglite-template", `pglite-${pgliteVersion()}.tar.gz`);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function systemIdentifier(dir: string): Promise<string> {
  const pg = await openPGlite(dir, { template });
  try {
    return (await pg.query<{ id: string }>("select system_identifier::text as id from pg_control_system()")).rows[0]!.id;
  } finally {
    await pg.close();
  }
}

describe("the embedded database's cluster template", () => {
  it("is named for the running PGlite version", () => {
    expect(path.basename(template)).toBe(`pglite-${pgliteVersion()}.tar.gz`);
    expect(existsSync(template)).toBe(true);
  });

  it("makes every new data directory: the template's cluster, migrated, durable across a reopen", async () => {
    const a = path.join(work, "a");
    const b = path.join(work, "b");
    const idA = await systemIdentifier(a);
    expect(await systemIdentifier(b)).toBe(idA);
    expect(readFileSync(path.join(a, "PG_VERSION"), "utf8").trim()).toBe(PG_MAJOR);
    expect(readdirSync(a).filter((n) => n.startsWith(".pglite-template"))).toEqual([]);

    const first = await openDatabase({ dataDir: a });
    try {
      expect((await migrateToLatest(first.db)).length).toBeGreaterThan(0);
      await sql`insert into organizations (id, name) values ('org-template', 'Kept')`.execute(first.db);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: a });
    try {
      expect(await migrateToLatest(again.db)).toEqual([]);
      const rows = await sql<{ name: string }>`select name from organizations where id = 'org-template'`.execute(again.db);
      expect(rows.rows).toEqual([{ name: "Kept" }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it("a damaged template fails clearly and leaves no half cluster; a good one then succeeds", async () => {
    const broken = path.join(work, "broken.tar.gz");
    const bytes = readFileSync(template);
    writeFileSync(broken, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const dir = path.join(work, "c");
    await expect(openPGlite(dir, { template: broken })).rejects.toMatchObject({ code: "internal", message: "The embedded database could not be created from its template." });
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    const pg = await openPGlite(dir, { template });
    expect((await pg.query<{ n: number }>("select 1 as n")).rows).toEqual([{ n: 1 }]);
    await pg.close();
  }, 120_000);
});

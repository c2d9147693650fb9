/**
 * An embedded data directory written by the previous release (PGlite 0.4.6, PostgreSQL 17,
 * migrated and filled by this code's own account functions) opens on this PGlite (PostgreSQL
 * 18) with every row, the sequences continuing, the API key still signing in, and the old
 * cluster kept as a backup the old PGlite still opens (db/pglite-upgrade.ts). An upgrade cut
 * off after the copy, half-way through the swap, completes on the next start; one cut off
 * during the copy starts over from the untouched old cluster; a database migrated by a newer
 * CodeSynapse is refused with `data_dir_upgrade_failed` and left as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Kysely, PGliteDialect, sql } from "kysely";
import { PGlite as PGlite17 } from "pglite-pg17";
import { afterAll, describe, expect, it } from "vitest";
import { addMember, createOrg, createRepo, createUser } from "../../core/accounts/accounts";
import { createApiKey } from "../../core/accounts/api-keys";
import { audit } from "../../core/audit";
import { authenticate } from "../../core/auth/authenticate";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { migrateToLatest, openDatabase } from "../../db/database";
import { openNewCluster, PG_MAJOR } from "../../db/pglite";
import { copyToNewCluster, SCRATCH, STATE_FILE, type PGliteUpgrade } from "../../db/pglite-upgrade";
import type { Database } from "../../db/schema";
import { identityStore } from "../../db/sql/identity/store";

const work = mkdtempSync(path.join(tmpdir(), "codesynapse-upgrade-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

interface OldData {
  dir: string;
  apiKey: string;
  orgId: string;
  audits: number;
}

/** A data directory as the previous release leaves it: PGlite 0.4.6, every migration, accounts and audit rows. */
async function oldDataDir(): Promise<OldData> {
  const dir = path.join(work, `d${n++}`);
  const pglite = await PGlite17.create(dir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  await migrateToLatest(db);
  const { org_id: orgId } = await createOrg(identityStore(db), { name: "Acme" });
  const { user_id: userId } = await createUser(identityStore(db), { email: "ada@example.test" });
  await addMember(identityStore(db), { orgId, userId, role: "admin" });
  const { api_key: apiKey } = await createApiKey(identityStore(db), { orgId, userId });
  await createRepo(identityStore(db), { orgId, name: "widgets" });
  for (let i = 0; i < 25; i++) await audit(identityStore(db), { at: new Date(), orgId, actorUserId: userId, actorKeyId: null, action: "session.register", outcome: "ok", sessionTarget: `s-${i}` });
  await db.destroy();
  expect(readFileSync(path.join(dir, "PG_VERSION"), "utf8").trim()).toBe("17");
  return { dir, apiKey, orgId, audits: 25 };
}

const auditCount = async (db: Kysely<Database>) => Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);

/** Opens `dir` with this code and checks everything `old` wrote is there and usable. */
async function expectUpgraded(old: OldData): Promise<void> {
  const database = await openDatabase({ dataDir: old.dir });
  try {
    expect(readFileSync(path.join(old.dir, "PG_VERSION"), "utf8").trim()).toBe(PG_MAJOR);
    expect(await migrateToLatest(database.db)).toEqual([]);
    const actor = await authenticate(identityStore(database.db), systemClock, { bearer: old.apiKey });
    expect(actor.orgId).toBe(old.orgId);
    expect(await auditCount(database.db)).toBe(old.audits);
    const repos = await database.db.selectFrom("repositories").select("name").execute();
    expect(repos.map((r) => r.name)).toEqual(["widgets"]);
    // The bigserial continues after the old rows instead of colliding with them.
    const before = Number((await sql<{ m: string }>`select max(id) as m from audit_log`.execute(database.db)).rows[0]!.m);
    await audit(identityStore(database.db), { at: new Date(), orgId: old.orgId, actorUserId: null, actorKeyId: null, action: "session.revoke", outcome: "ok", sessionTarget: "after-upgrade" });
    const after = Number((await sql<{ m: string }>`select max(id) as m from audit_log`.execute(database.db)).rows[0]!.m);
    expect(after).toBe(before + 1);
  } finally {
    await database.close();
  }
  expect(existsSync(path.join(old.dir, SCRATCH))).toBe(false);
  expect(existsSync(path.join(old.dir, STATE_FILE))).toBe(false);
}

/** The backup: the old cluster, whole, opened by the old PGlite. */
async function expectBackup(old: OldData): Promise<void> {
  const backups = readdirSync(old.dir).filter((e) => e.startsWith("pglite-backup-pg17-"));
  expect(backups).toHaveLength(1);
  const pg = await PGlite17.create(path.join(old.dir, backups[0]!));
  try {
    expect((await pg.query<{ n: number }>("select count(*)::int as n from audit_log")).rows[0]!.n).toBe(old.audits);
  } finally {
    await pg.close();
  }
}

describe("upgrading an embedded data directory from PGlite 0.4.6 (PostgreSQL 17)", () => {
  it("opens with every row, the key still signs in, sequences continue, the old cluster kept; a second start does nothing more", async () => {
    const old = await oldDataDir();
    const told: PGliteUpgrade[] = [];
    const database = await openDatabase({ dataDir: old.dir, onUpgrade: (u) => told.push(u) });
    await database.close();
    expect(told).toEqual([{ from: "17", to: PG_MAJOR, backup: expect.stringContaining(path.join(old.dir, "pglite-backup-pg17-")), tables: expect.any(Number), rows: expect.any(Number) }]);
    expect(told[0]!.rows).toBeGreaterThanOrEqual(old.audits + 4);
    await expectUpgraded(old);
    await expectBackup(old);
    const again: PGliteUpgrade[] = [];
    await (await openDatabase({ dataDir: old.dir, onUpgrade: (u) => again.push(u) })).close();
    expect(again).toEqual([]);
  }, 300_000);

  it("an upgrade cut off half-way through the swap (old cluster partly moved out) completes on the next start", async () => {
    const old = await oldDataDir();
    const state = await copyToNewCluster(old.dir, PG_MAJOR, (d) => openNewCluster(d));
    expect(state.phase).toBe("copied");
    // The process died after moving PG_VERSION and `base` of the old cluster into the backup.
    mkdirSync(path.join(old.dir, state.backup));
    for (const e of ["PG_VERSION", "base"]) renameSync(path.join(old.dir, e), path.join(old.dir, state.backup, e));
    await expectUpgraded(old);
    await expectBackup(old);
  }, 300_000);

  it("a copy cut off before it finished leaves the old cluster in use: the scratch is discarded and the copy starts over", async () => {
    const old = await oldDataDir();
    mkdirSync(path.join(old.dir, SCRATCH, "base"), { recursive: true });
    writeFileSync(path.join(old.dir, SCRATCH, "PG_VERSION"), "18\n");
    await expectUpgraded(old);
    await expectBackup(old);
  }, 300_000);

  it("a database migrated by a newer CodeSynapse is refused with data_dir_upgrade_failed and left as it was", async () => {
    const old = await oldDataDir();
    const pg = await PGlite17.create(old.dir);
    await pg.query("insert into kysely_migration (name, timestamp) values ('29991231_0001_from_the_future', now()::text)");
    await pg.close();
    const err = await openDatabase({ dataDir: old.dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("data_dir_upgrade_failed");
    expect((err as AppError).message).toContain("29991231_0001_from_the_future");
    expect(readFileSync(path.join(old.dir, "PG_VERSION"), "utf8").trim()).toBe("17");
    expect(readdirSync(old.dir).filter((e) => e === SCRATCH || e === STATE_FILE || e.startsWith("pglite-backup-"))).toEqual([]);
    const again = await PGlite17.create(old.dir);
    expect((await again.query<{ n: number }>("select count(*)::int as n from audit_log")).rows[0]!.n).toBe(old.audits);
    await again.close();
  }, 300_000);
});

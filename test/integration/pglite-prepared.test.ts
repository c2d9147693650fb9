/**
 * Statements named at their call site (core/prepare.ts executePrepared) run on the embedded
 * database as named prepared statements (db/pglite-prepared.ts): planned once, yet every call reads the rows as they are now — a
 * revoked key is refused on the very next request —, parameters and results keep their types,
 * and a failing call leaves the connection usable (inside a transaction: aborted, as any failure).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate, authenticateFor } from "../../core/auth/authenticate";
import { apiKeyPrefix, revokeApiKey } from "../../core/accounts/api-keys";
import { systemClock } from "../../core/clock";
import { executePrepared } from "../../core/prepare";
import { registerSession } from "../../core/registry/registry";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../../db/database";
import { seedAccount } from "../support/fixtures";
import { identityStore } from "../../db/sql/identity/store";

describe("named prepared statements on PGlite", () => {
  let d: OpenDatabase;
  beforeAll(async () => {
    d = await openDatabase({});
    await migrateToLatest(d.db);
  });
  afterAll(async () => {
    await d.close();
  });

  it("reads the current rows on every call: a key revoked between two calls is refused on the second", async () => {
    const a = await seedAccount(d.db);
    const actor = await authenticate(identityStore(d.db), systemClock, { bearer: a.apiKey });
    expect(actor.userId).toBe(a.userId);
    await revokeApiKey(identityStore(d.db), { prefix: apiKeyPrefix(a.apiKey), at: new Date() });
    await expect(authenticate(identityStore(d.db), systemClock, { bearer: a.apiKey })).rejects.toMatchObject({ code: "api_key_revoked" });
  });

  it("keeps parameter and result types (null, text, timestamps, booleans, numbers) across calls", async () => {
    const q = (v: string | null, at: Date) =>
      executePrepared(d.db, "probe_types", sql<{ v: string | null; at: Date; yes: boolean; n: number }>`select ${v}::text as v, ${at}::timestamptz as at, (${v}::text is null) as yes, 41 + 1 as n`);
    const at = new Date("2026-01-02T03:04:05.678Z");
    for (const v of ["x", null, "it's"]) {
      const [row] = (await q(v, at)).rows;
      expect(row).toEqual({ v, at, yes: v === null, n: 42 });
    }
  });

  it("a failing call is an error and the next statement runs; inside a transaction the transaction is aborted", async () => {
    const bad = () => executePrepared(d.db, "probe_divide", sql`select 1 / ${0}::int as x`);
    await expect(bad()).rejects.toThrow(/division by zero/);
    await expect(sql<{ x: number }>`select 1 as x`.execute(d.db)).resolves.toMatchObject({ rows: [{ x: 1 }] });
    await expect(
      d.db.transaction().execute(async (tx) => {
        await executePrepared(tx, "probe_divide", sql`select 1 / ${0}::int as x`).catch(() => undefined);
        await sql`select 1`.execute(tx);
      }),
    ).rejects.toThrow(/current transaction is aborted/);
    await expect(bad()).rejects.toThrow(/division by zero/);
    await expect(executePrepared(d.db, "probe_int", sql<{ x: number }>`select ${2}::int as x`)).resolves.toMatchObject({ rows: [{ x: 2 }] });
  });

  it("inside a transaction a named statement runs in it: it sees the transaction's own writes, and outside readers wait for the commit", async () => {
    await sql`create table prepared_probe (k text primary key)`.execute(d.db);
    const count = (db: typeof d.db, k: string) => executePrepared(db, "probe_count", sql<{ n: number }>`select count(*)::int as n from prepared_probe where k = ${k}`).then((r) => r.rows[0]!.n);
    let outside: Promise<number> | undefined;
    await d.db.transaction().execute(async (tx) => {
      await sql`insert into prepared_probe (k) values (${"a"})`.execute(tx);
      expect(await count(tx, "a")).toBe(1);
      // A reader outside the transaction is queued behind it (one connection), not run inside it.
      outside = count(d.db, "a");
      await new Promise((resolve) => setTimeout(resolve, 50)); // time enough to run, were it not queued
      await sql`delete from prepared_probe`.execute(tx);
      await sql`insert into prepared_probe (k) values (${"b"})`.execute(tx);
    });
    expect(await outside).toBe(0);
    await expect(
      d.db.transaction().execute(async (tx) => {
        await sql`delete from prepared_probe`.execute(tx);
        expect(await count(tx, "b")).toBe(0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await count(d.db, "b")).toBe(1);
  });

  it("authorize()'s read runs on a plan made once: after PostgreSQL's five trial plans, no call plans it again", async () => {
    const a = await seedAccount(d.db);
    const session = `plan-${a.userId.slice(0, 8)}`;
    await registerSession(identityStore(d.db), systemClock, { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null }, session);
    const plans = async () =>
      (await sql<{ generic: number; custom: number }>`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${"%with q(%session_bindings b%"} and statement not like ${"%$2::text, $3::text%"}`.execute(d.db)).rows;
    for (let i = 0; i < 20; i++) await authenticateFor(identityStore(d.db), systemClock, { bearer: a.apiKey }, session);
    const [p] = await plans();
    expect(p!.custom).toBeLessThanOrEqual(5);
    expect(p!.generic).toBeGreaterThanOrEqual(15);
  });
});

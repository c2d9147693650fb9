/**
 * Statements named at their call site (core/prepare.ts executePrepared) run on the PostgreSQL
 * server as named prepared statements (db/drivers.ts): prepared once per connection and reused
 * afterwards, one server name per text even when two texts are given the same name, and an
 * unnamed statement is not prepared at all. One connection (a pool of 1), so every statement
 * here and every read of `pg_prepared_statements` (which lists the current session's statements)
 * run on the same session. Also the driver's transaction behaviours Kysely's own driver has.
 */
import { AbortedTransactionError, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { executePrepared, statementNameFor } from "../../core/prepare";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { describeWithService, probeService } from "../support/services";

const pgStatus = await probeService("postgres");

describeWithService(pgStatus, "named prepared statements on PostgreSQL", () => {
  let d: TestDatabase;
  beforeAll(async () => {
    d = await openTestDatabase("postgres", { poolSize: 1 });
  });
  afterAll(async () => {
    await d?.close();
  });

  /** This session's prepared statements whose name starts with `prefix`, with how often each ran. */
  const preparedNamed = async (prefix: string) =>
    (
      await sql<{ name: string; statement: string; runs: number }>`select name, statement, (generic_plans + custom_plans)::int as runs
        from pg_prepared_statements where starts_with(name, ${prefix}) order by name`.execute(d.db)
    ).rows;
  const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(d.db)).rows[0]!.pid;

  it("a named statement is prepared once on the connection and reused by the next calls", async () => {
    const pid = await backend();
    const q = (v: number) => executePrepared(d.db, "probe_once", sql<{ x: number }>`select ${v}::int + 1 as x`);
    expect(await preparedNamed("probe_once")).toEqual([]);
    expect((await q(1)).rows).toEqual([{ x: 2 }]);
    const first = await preparedNamed("probe_once");
    expect(first).toHaveLength(1);
    expect(first[0]!.name).toBe(statementNameFor("probe_once", "select $1::int + 1 as x"));
    expect(first[0]!.runs).toBe(1);
    expect((await q(41)).rows).toEqual([{ x: 42 }]);
    expect((await q(2)).rows).toEqual([{ x: 3 }]);
    // Still the one statement, now run three times (no second Parse: the server would refuse a name it already has).
    expect(await preparedNamed("probe_once")).toEqual([{ ...first[0], runs: 3 }]);
    expect(await backend()).toBe(pid);
  });

  it("two texts given the same name are two statements with two server names", async () => {
    await executePrepared(d.db, "probe_variant", sql`select ${1}::int as x`);
    await executePrepared(d.db, "probe_variant", sql`select ${1}::int as x where ${true}::bool`);
    await executePrepared(d.db, "probe_variant", sql`select ${2}::int as x`);
    const named = await preparedNamed("probe_variant_");
    expect(named).toHaveLength(2);
    expect(new Set(named.map((s) => s.statement))).toEqual(new Set(["select $1::int as x", "select $1::int as x where $2::bool"]));
    expect(named.map((s) => s.runs).sort()).toEqual([1, 2]);
  });

  it("an unnamed statement is not prepared", async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(d.db);
    await sql`select ${1}::int as unnamed_probe`.execute(d.db);
    await d.db.selectFrom("jobs").select("id").where("id", "=", "unnamed-probe").execute();
    const after = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(d.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${"%unnamed_probe%"}`.execute(d.db)).rows[0]!.n).toBe(0);
  });

  it("a named statement inside a transaction runs in it, and reports the rows it changed", async () => {
    await sql`create table prepared_probe (k text primary key)`.execute(d.db);
    const count = (db: typeof d.db, k: string) => executePrepared(db, "probe_count", sql<{ n: number }>`select count(*)::int as n from prepared_probe where k = ${k}`).then((r) => r.rows[0]!.n);
    await d.db.transaction().execute(async (tx) => {
      const inserted = await executePrepared(tx, "probe_insert", sql`insert into prepared_probe (k) values (${"a"}), (${"b"})`);
      expect(inserted.numAffectedRows).toBe(2n);
      expect(await count(tx, "a")).toBe(1);
    });
    expect(await count(d.db, "a")).toBe(1);
    await expect(
      d.db.transaction().execute(async (tx) => {
        await executePrepared(tx, "probe_delete", sql`delete from prepared_probe where k = ${"a"}`);
        expect(await count(tx, "a")).toBe(0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await count(d.db, "a")).toBe(1);
  });

  it("a COMMIT the server answers with ROLLBACK (an earlier statement failed) is an AbortedTransactionError; the connection stays usable", async () => {
    const pid = await backend();
    await expect(
      d.db.transaction().execute(async (tx) => {
        await executePrepared(tx, "probe_divide", sql`select 1 / ${0}::int as x`).catch(() => undefined);
      }),
    ).rejects.toBeInstanceOf(AbortedTransactionError);
    await expect(executePrepared(d.db, "probe_divide", sql`select 1 / ${1}::int as x`)).resolves.toMatchObject({ rows: [{ x: 1 }] });
    expect(await backend()).toBe(pid);
  });

  it("transactions keep their isolation level and savepoints", async () => {
    const level = await d.db
      .transaction()
      .setIsolationLevel("serializable")
      .execute(async (tx) => (await sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(tx)).rows[0]!.l);
    expect(level).toBe("serializable");
    const trx = await d.db.startTransaction().execute();
    await sql`insert into prepared_probe (k) values (${"s1"})`.execute(trx);
    const sp = await trx.savepoint("before_s2").execute();
    await sql`insert into prepared_probe (k) values (${"s2"})`.execute(sp);
    await sp.rollbackToSavepoint("before_s2").execute();
    await trx.commit().execute();
    const keys = await sql<{ k: string }>`select k from prepared_probe where k like ${"s%"} order by k`.execute(d.db);
    expect(keys.rows.map((r) => r.k)).toEqual(["s1"]);
  });
});

/**
 * core/prepare.ts names a statement where it is sent: the server name is the given name and a
 * hash of the text (one name per text, the same name for the same text), the name rides on the
 * compiled query Kysely hands the driver unchanged, and a name that could not stay within
 * PostgreSQL's 63-byte identifiers is refused. No database: a dummy Kysely compiles.
 */
import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { prepared, statementName, statementNameFor } from "../../core/prepare";

const db = new Kysely<{ t: { id: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe("named prepared statements (core/prepare.ts)", () => {
  it("one server name per text: the given name, then 16 hex digits of the text's hash", () => {
    const a = statementNameFor("get_job", "select 1");
    expect(a).toMatch(/^get_job_[0-9a-f]{16}$/);
    expect(statementNameFor("get_job", "select 1")).toBe(a);
    expect(statementNameFor("get_job", "select 2")).not.toBe(a);
    expect(statementNameFor("list_jobs", "select 1")).toBe(`list_jobs_${a.slice("get_job_".length)}`);
  });

  it("refuses names that are not lower-case identifiers of at most 40 characters", () => {
    for (const bad of ["", "Get_job", "get-job", "1job", "a".repeat(41), "x; drop table t"]) expect(() => statementNameFor(bad, "select 1")).toThrow(/invalid prepared statement name/);
    expect(statementNameFor("a".repeat(40), "select 1").length).toBeLessThanOrEqual(63);
  });

  it("the name rides on the compiled query, the query itself unchanged; an unnamed query has none", () => {
    const built = db.selectFrom("t").selectAll().where("id", "=", "x").compile();
    const named = prepared("probe", built);
    expect(named).toMatchObject({ sql: built.sql, parameters: ["x"], queryId: built.queryId, query: built.query });
    expect(statementName(named)).toBe(statementNameFor("probe", built.sql));
    expect(statementName(built)).toBeUndefined();
    expect(statementName(sql`select ${1}`.compile(db))).toBeUndefined();
    expect(statementName(CompiledQuery.raw("select 1"))).toBeUndefined();
  });
});

/**
 * Runs a suite against every relational store: PGlite (always) and the real
 * PostgreSQL server (TEST_DATABASE_URL or DATABASE_URL). Each file gets its own
 * freshly migrated database: an in-memory PGlite, or a fresh schema on
 * PostgreSQL that is dropped afterwards.
 */
import { afterAll, beforeAll } from "vitest";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { migrateToLatest, openDatabase, type DatabaseKind, type OpenDatabase } from "../../db/database";
import { describeWithService, probeService, type ServiceStatus } from "./services";

export interface TestDatabase extends OpenDatabase {
  kind: DatabaseKind;
}

const pgliteStatus: ServiceStatus = { name: "postgres", url: undefined, available: true, reason: "embedded" };

export async function openTestDatabase(kind: DatabaseKind, opts: { poolSize?: number } = {}): Promise<TestDatabase> {
  if (kind === "pglite") {
    const d = await openDatabase({});
    await migrateToLatest(d.db);
    return d;
  }
  const status = await probeService("postgres");
  if (!status.url) throw new Error(status.reason);
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: status.url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const d = await openDatabase({ url: status.url, schema, poolSize: opts.poolSize ?? 10 });
  await migrateToLatest(d.db);
  return {
    ...d,
    close: async () => {
      await d.close();
      const c = new pg.Client({ connectionString: status.url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * `describeEachDatabase("registry", (t) => { it(..., async () => t().db ...) })`
 * declares the suite once per store; `t()` is that store's database.
 */
export async function describeEachDatabase(title: string, body: (t: () => TestDatabase) => void, opts: { poolSize?: number } = {}): Promise<void> {
  const pgStatus = await probeService("postgres");
  for (const [kind, status] of [
    ["pglite", pgliteStatus],
    ["postgres", pgStatus],
  ] as const) {
    describeWithService(status, `${title} [${kind}]`, () => {
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = await openTestDatabase(kind, opts);
      });
      afterAll(async () => {
        await database?.close();
      });
      body(() => {
        if (!database) throw new Error("database not open");
        return database;
      });
    });
  }
}

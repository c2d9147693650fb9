/**
 * Migrating one schema of a PostgreSQL database while other clients drop their own schemas in
 * the same database (parallel test files, a neighbouring application): Kysely's migrator lists
 * every table of the database, and a table dropped during that listing used to fail the
 * migration with "relation … does not exist". Every migration here must succeed.
 */
import pg from "pg";
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { openTestDatabase } from "../support/databases";
import { describeWithService, probeService } from "../support/services";

const status = await probeService("postgres");

describeWithService(status, "migrations beside schemas that other clients drop", () => {
  it("each migration of a fresh schema succeeds while neighbouring schemas come and go", async () => {
    // Many columns in the database make the migrator's listing long; two clients keep
    // creating and dropping schemas of their own meanwhile.
    const churn = await Promise.all([0, 1].map(async () => {
      const c = new pg.Client({ connectionString: status.url });
      await c.connect();
      return c;
    }));
    const schemas: string[] = [];
    let stop = false;
    const fill = (s: string, n: number) => `create schema ${s}; ${Array.from({ length: n }, (_, i) => `create table ${s}.t${i} (id serial primary key, a int, b int, c int, d int, e int)`).join(";")}`;
    for (let i = 0; i < 4; i++) {
      const s = `churn_${randomBytes(4).toString("hex")}`;
      schemas.push(s);
      await churn[0]!.query(fill(s, 150));
    }
    const churning = churn.map(async (c) => {
      while (!stop) {
        const s = `churn_${randomBytes(4).toString("hex")}`;
        await c.query(fill(s, 30));
        await c.query(`drop schema ${s} cascade`);
      }
    });
    try {
      for (let round = 0; round < 5; round++) {
        const dbs = await Promise.all([openTestDatabase("postgres", { poolSize: 2 }), openTestDatabase("postgres", { poolSize: 2 })]);
        for (const d of dbs) {
          const r = await d.db.selectFrom("audit_log").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
          expect(Number(r.n)).toBe(0);
          await d.close();
        }
      }
    } finally {
      stop = true;
      await Promise.all(churning);
      for (const s of schemas) await churn[0]!.query(`drop schema ${s} cascade`);
      await Promise.all(churn.map((c) => c.end()));
    }
  }, 120_000);
});

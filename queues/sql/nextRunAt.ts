/** nextRunAt: when the earliest queued row of a pool becomes due (the PostgreSQL source sleeps until then). */
import { sql } from "kysely";
import type { Db } from "../../db/schema";

export async function nextRunAt(db: Db, pool: string): Promise<Date | null> {
  const r = await db
    .selectFrom("jobs")
    .select(sql<Date | null>`min(run_at)`.as("at"))
    .where("status", "=", "queued")
    .where("pool", "=", pool)
    .executeTakeFirst();
  return r?.at ? new Date(r.at) : null;
}

/** notifyPool: wakes the pool's claim loops (workers/sources/postgres.ts LISTENs on JOBS_CHANNEL), on its own, after the rows' commit. */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import { JOBS_CHANNEL } from "./enqueueJob";

export async function notifyPool(db: Db, pool: string): Promise<void> {
  await sql`select pg_notify(${JOBS_CHANNEL}, ${pool})`.execute(db);
}

/**
 * ping: one round trip that fails unless the connection — or the transaction — can still run a statement.
 * Readiness checks the job database with it (api/routes/health.ts); inside a job's fenced persist it proves
 * the transaction that finished the job row, and so holds that row's lock, is still alive before a store
 * of its own writes (workers/fenced-stores.ts).
 */
import { sql } from "kysely";
import type { Db, Tx } from "../../db/schema";

export async function ping(db: Db | Tx): Promise<void> {
  await sql`select 1`.execute(db);
}

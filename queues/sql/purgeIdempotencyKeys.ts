/**
 * purgeIdempotencyKeys: deletes at most `limit` key rows of an ended session, or past their expiry
 * (`before`), in one statement; answers how many went. The cleanup sweep's batches (queues/idempotency.ts).
 */
import { sql } from "kysely";
import type { CleanupTarget } from "../../core/retention/cleaners";
import type { Db } from "../../db/schema";

export async function purgeIdempotencyKeys(db: Db, which: { session: CleanupTarget } | { before: Date }, limit: number): Promise<number> {
  const where = "session" in which ? sql<boolean>`tenant_id = ${which.session.tenant_id} and session_id = ${which.session.session_id}` : sql<boolean>`expires_at <= ${which.before}`;
  const r = await sql<{ n: number }>`
    with gone as (
      delete from job_idempotency_keys
       where ctid in (select ctid from job_idempotency_keys where ${where} limit ${limit})
      returning 1)
    select count(*)::int as n from gone`.execute(db);
  return r.rows[0]?.n ?? 0;
}

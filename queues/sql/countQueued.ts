/**
 * countQueued: the queued rows of the given organisations in the given pools, per session —
 * what the submission caps (queues/caps.ts) compare with. One statement over jobs_fair_idx
 * (pool, organisation, session): an index range per organisation and pool.
 */
import { sql } from "kysely";
import type { Db, Tx } from "../../db/schema";

export interface QueuedCount {
  pool: string;
  tenant_id: string;
  session_id: string;
  n: number;
}

export async function countQueued(db: Db | Tx, pools: readonly string[], orgs: readonly string[]): Promise<QueuedCount[]> {
  if (pools.length === 0 || orgs.length === 0) return [];
  const r = await sql<{ pool: string; tenant_id: string; session_id: string; n: string | number }>`
    select pool, coalesce(tenant_id, '') as tenant_id, coalesce(session_id, '') as session_id, count(*) as n
      from jobs
     where status = 'queued' and pool = any(${[...pools]}::text[]) and coalesce(tenant_id, '') = any(${[...orgs]}::text[])
     group by 1, 2, 3`.execute(db);
  return r.rows.map((x) => ({ ...x, n: Number(x.n) }));
}

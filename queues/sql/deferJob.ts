/**
 * deferJob: the model provider asked us to slow down (its 429 / Retry-After, or our own provider
 * limit would wait too long: core/provider-limits.ts). The job goes back to `queued` at
 * `runAt` and the attempt the claim counted is given back (attempts - 1), so a provider's
 * pushback never uses up `max_attempts` — a one-attempt kind (fix) still runs. Fenced by the
 * lease token like every worker write; undefined when the lease was lost.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";

export async function deferJob(db: Db, o: { id: string; token: string; now: Date; runAt: Date; errorCode: string }): Promise<{ attempts: number; runAt: Date } | undefined> {
  const r = await sql<{ attempts: number; run_at: Date }>`
    update jobs
       set status = 'queued', attempts = greatest(attempts - 1, 0), run_at = ${o.runAt}, dispatched_at = ${o.now},
           error_code = ${o.errorCode},
           lease_owner = null, lease_token = null, lease_expires_at = null,
           updated_at = ${o.now}
     where id = ${o.id} and lease_token = ${o.token} and status = 'running'
    returning attempts, run_at`.execute(db);
  const row = r.rows[0];
  return row ? { attempts: row.attempts, runAt: row.run_at } : undefined;
}

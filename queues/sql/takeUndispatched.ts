/**
 * takeUndispatched: the reconciler's read (JOB-8). Queued rows that were not
 * handed to the dispatcher recently (or ever) are stamped `dispatched_at = now`
 * and returned, so they are dispatched again. After a Redis FLUSHALL every
 * queued row comes back here within `staleMs`.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";

export interface Dispatchable {
  id: string;
  pool: string;
  attempts: number;
  run_at: Date;
}

export async function takeUndispatched(db: Db, o: { now: Date; staleMs: number; limit?: number }): Promise<Dispatchable[]> {
  const before = new Date(o.now.getTime() - o.staleMs);
  const r = await sql<Dispatchable>`
    with due as (
      select id from jobs
      where status = 'queued' and (dispatched_at is null or dispatched_at <= ${before})
      order by run_at, id
      limit ${o.limit ?? 1000}
      for update skip locked
    )
    update jobs j set dispatched_at = ${o.now}
      from due where j.id = due.id
    returning j.id, j.pool, j.attempts, j.run_at`.execute(db);
  return r.rows;
}

/**
 * takeDueSchedules: due, enabled schedules, locked (`skip locked`: two worker
 * processes never fire the same schedule) and advanced to their next run in one
 * statement. Takes a Transaction: the caller enqueues their jobs in the same one.
 */
import { sql } from "kysely";
import type { Tx } from "../../db/schema";
import type { ScheduleRow } from "../jobs";

export async function takeDueSchedules(tx: Tx, o: { now: Date; limit?: number }): Promise<ScheduleRow[]> {
  const r = await sql<ScheduleRow>`
    with due as (
      select id from job_schedules
      where enabled and next_run_at <= ${o.now}
      order by next_run_at
      limit ${o.limit ?? 100}
      for update skip locked
    )
    update job_schedules s
       set next_run_at = ${o.now}::timestamptz + s.interval_ms * interval '1 millisecond',
           last_run_at = ${o.now}
      from due
     where s.id = due.id
    returning s.*`.execute(tx);
  return r.rows;
}

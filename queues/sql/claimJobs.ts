/**
 * claimJobs: THE claim, shared by both dispatch paths (JOB-2). One statement:
 * a `for update skip locked` CTE picks due queued rows of one pool (or the
 * given ids, when BullMQ handed us a job id), and the `update … returning`
 * marks them running, bumps `attempts` and sets a fresh lease (owner, random
 * token, deadline). Concurrent claimers never get the same row.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import type { JobRow } from "../jobs";

export interface ClaimOptions {
  pool: string;
  workerId: string;
  leaseMs: number;
  limit: number;
  now: Date;
  /** Restrict to these job ids (the BullMQ path). */
  ids?: readonly string[];
}

export async function claimJobs(db: Db, o: ClaimOptions): Promise<JobRow[]> {
  if (o.limit <= 0 || (o.ids && o.ids.length === 0)) return [];
  const expires = new Date(o.now.getTime() + o.leaseMs);
  const byId = o.ids ? sql`and id = any(${[...o.ids]}::text[])` : sql``;
  const r = await sql<JobRow>`
    with next as (
      select id from jobs
      where status = 'queued' and pool = ${o.pool} and run_at <= ${o.now} ${byId}
      order by run_at, id
      limit ${o.limit}
      for update skip locked
    )
    update jobs j
       set status = 'running',
           attempts = j.attempts + 1,
           lease_owner = ${o.workerId},
           lease_token = gen_random_uuid()::text,
           lease_expires_at = ${expires},
           started_at = coalesce(j.started_at, ${o.now}),
           updated_at = ${o.now}
      from next
     where j.id = next.id
    returning j.*`.execute(db);
  return r.rows;
}

/**
 * jobsById: the rows of these jobs, any identity's, in one statement. The shared status watcher's
 * poll (queues/job-watch.ts) reads the jobs its subscribers named after their own checked read; a
 * submission whose idempotency key is held reads back the job that key made (queues/submit.ts).
 */
import type { Db, Tx } from "../../db/schema";
import type { JobRow } from "../jobs";

export async function jobsById(db: Db | Tx, ids: readonly string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom("jobs").selectAll().where("id", "in", [...ids]).execute()) as JobRow[];
}

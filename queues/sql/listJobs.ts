/** listJobs: the execution identity's own jobs, newest first, bounded, with a created_at cursor. */
import type { Identity } from "../../core/execution/identity";
import { executePrepared } from "../../core/prepare";
import type { Db } from "../../db/schema";
import type { JobRow, JobStatus } from "../jobs";

export async function listJobs(
  db: Db,
  identity: Identity,
  o: { limit: number; status?: JobStatus; before?: Date },
): Promise<JobRow[]> {
  let q = db
    .selectFrom("jobs")
    .selectAll()
    .where("system", "=", false)
    .where("tenant_id", "=", identity.tenant_id)
    .where("session_id", "=", identity.session_id)
    .where("subject_id", "=", identity.subject_id);
  if (o.status) q = q.where("status", "=", o.status);
  if (o.before) q = q.where("created_at", "<", o.before);
  // Prepared (core/prepare.ts): four texts at most, by the filters present.
  return (await executePrepared(db, "list_jobs", q.orderBy("created_at", "desc").orderBy("id", "desc").limit(o.limit))).rows;
}

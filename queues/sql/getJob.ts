/**
 * getJob: one job, visible only to the execution identity that created it
 * (same tenant, subject and primary session). Anything else is "not found".
 * A named prepared statement (core/prepare.ts): every job poll runs it, and planning its five
 * predicates again on each call cost PostgreSQL twice the execution.
 */
import type { Identity } from "../../core/execution/identity";
import { executePrepared } from "../../core/prepare";
import type { Db, Tx } from "../../db/schema";
import type { JobRow } from "../jobs";

export async function getJob(db: Db | Tx, identity: Identity, id: string): Promise<JobRow | undefined> {
  const q = db
    .selectFrom("jobs")
    .selectAll()
    .where("id", "=", id)
    .where("system", "=", false)
    .where("tenant_id", "=", identity.tenant_id)
    .where("subject_id", "=", identity.subject_id)
    .where("session_id", "=", identity.session_id);
  return (await executePrepared(db, "get_job", q)).rows[0];
}

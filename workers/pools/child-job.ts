/**
 * Follow-up jobs a handler starts (ingest → embedding, embedding → the next
 * batch): submitted inside the runner's lease-fenced persist transaction,
 * through the one `submitJob`, under the identity and principal the parent's
 * recheck before work accepted (the row's own) — so the child carries the
 * same primary session (JOB-5) and runs only if the parent's writes commit.
 * The child names the job that began its chain (the parent's own origin, else
 * the parent): that job's view lists every follow-up of the chain
 * (ops/job-view.ts, docs/jobs.md "Follow-up jobs").
 */
import type { Tx } from "../../db/schema";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue, type SubmitInput } from "../../queues/submit";
import type { JobAuthorized } from "../handler";

export async function submitChildJob(queue: JobQueue, tx: Tx, auth: JobAuthorized, parent: Pick<JobRow, "id" | "origin_job_id">, input: SubmitInput): Promise<JobRow> {
  return submitJob(queue, auth.identity, auth.principal, input, { tx, originJobId: parent.origin_job_id ?? parent.id });
}

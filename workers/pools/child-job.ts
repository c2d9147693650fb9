/**
 * Follow-up jobs a handler starts (ingest → embedding, embedding → the next
 * batch): submitted inside the runner's lease-fenced persist transaction,
 * through the one `submitJob`, under the identity and principal the parent's
 * recheck before work accepted (the row's own) — so the child carries the
 * same primary session (JOB-5) and runs only if the parent's writes commit.
 */
import type { Tx } from "../../db/schema";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue, type SubmitInput } from "../../queues/submit";
import type { JobAuthorized } from "../handler";

export async function submitChildJob(queue: JobQueue, tx: Tx, auth: JobAuthorized, input: SubmitInput): Promise<JobRow> {
  return submitJob(queue, auth.identity, auth.principal, input, { tx });
}

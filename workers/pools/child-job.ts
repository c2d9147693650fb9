/**
 * Follow-up jobs a handler starts (ingest → embedding, embedding → the next
 * batch): submitted inside the runner's lease-fenced persist transaction,
 * through the one `submitJob`, with the parent's identity and principal ids as
 * stored on its row — so the child carries the same primary session (JOB-5)
 * and runs only if the parent's writes commit.
 */
import type { Principal } from "../../core/authorize";
import type { Identity } from "../../core/execution/identity";
import type { Tx } from "../../db/schema";
import type { JobRow } from "../../queues/jobs";
import { submitJob, type JobQueue, type SubmitInput } from "../../queues/submit";

export function principalOfRow(job: Readonly<JobRow>, identity: Identity): Principal {
  if (!job.actor_user_id) throw new Error("a user job row carries its actor");
  return { orgId: identity.tenant_id, userId: job.actor_user_id, apiKeyId: job.api_key_id, loginSessionId: job.login_session_id };
}

export async function submitChildJob(queue: JobQueue, tx: Tx, job: Readonly<JobRow>, identity: Identity, input: SubmitInput): Promise<JobRow> {
  return submitJob(queue, identity, principalOfRow(job, identity), input, { tx });
}

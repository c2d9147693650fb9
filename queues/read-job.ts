/**
 * readJob: one of the caller's own jobs (same organisation, user and primary
 * session; any other is `job_not_found`), after waiting up to `waitMs` for a
 * terminal status through the shared watcher. The one read behind
 * `GET /api/v1/jobs/{id}` and the `get_job` tool.
 */
import { AppError } from "../core/errors";
import type { Identity } from "../core/execution/identity";
import { JOB_WAIT_MAX_MS } from "../core/limits";
import type { Db } from "../db/schema";
import type { JobRow } from "./jobs";
import { waitForTerminal, type JobWatcher } from "./job-watch";
import { getJob } from "./sql/getJob";

const JOB_ID = /^job_[0-9a-f]{32}$/;

/** A job id as sent by a client: anything not shaped like one is `job_not_found`, like a job of someone else. */
export function jobIdOf(raw: unknown): string {
  if (typeof raw !== "string" || !JOB_ID.test(raw)) throw new AppError("job_not_found");
  return raw;
}

/** The caller's own job, or `job_not_found`. */
export async function ownJob(db: Db, identity: Identity, id: string): Promise<JobRow> {
  const job = await getJob(db, identity, jobIdOf(id));
  if (!job) throw new AppError("job_not_found");
  return job;
}

export async function readJob(
  db: Db,
  watcher: () => JobWatcher,
  identity: Identity,
  id: string,
  opts: { waitMs?: number | undefined; signal?: AbortSignal } = {},
): Promise<JobRow> {
  const job = await ownJob(db, identity, id);
  if (!opts.waitMs) return job;
  return waitForTerminal(watcher(), job, Math.min(opts.waitMs, JOB_WAIT_MAX_MS), opts.signal);
}

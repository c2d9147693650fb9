/**
 * The operators' reads and actions over every job (platform admins only; the `admin.*` operations in ops/admin-jobs.ts):
 *
 *   listAdminJobs    jobs matching a filter (pool, status, organisation, kind, error code), newest
 *                    first, with the organisation's name, the repository's name and the actor's email;
 *   failureGroups    failed, refused and abandoned jobs grouped by kind and error code;
 *   adminJobDetail   one job with its attempts (job_attempts, written by the attempt-history trigger)
 *                    and its follow-up jobs (./followUps.ts; the row's origin_job_id names the job
 *                    that began its own chain);
 *   (cancel: cancelAnyJob in cancelJob.ts, the owner's transition for any job);
 *   requeueJobs      retry/replay: failed or refused restartable jobs go back to `queued` as they are —
 *                    the same row, so the same identity and primary session — with room for one more
 *                    attempt. The claim rechecks the identity like any claim; fix jobs (restartable =
 *                    false) are never requeued.
 */
import { sql, type SqlBool } from "kysely";
import type { Db } from "../../db/schema";
import { MAX_JOB_FOLLOW_UPS } from "../../core/limits";
import type { JobRow, JobStatus } from "../jobs";
import { followUpsOf, type FollowUp } from "./followUps";

export interface JobFilter {
  pool?: string;
  status?: string;
  org?: string;
  kind?: string;
  error_code?: string;
  /** Leave out system jobs (the scheduled cleanup sweep): the console's default. */
  hide_system?: boolean;
}

const FAILED = ["failed", "refused", "abandoned"] as const;
/** What retry and replay take: a job that ended with an error and may run again. */
export const REQUEUEABLE = ["failed", "refused"] as const;

/** The filter as one SQL condition over `j` (the jobs table's alias); an empty filter is `true`. */
function matches(f: JobFilter) {
  const c = [sql<SqlBool>`true`];
  if (f.pool) c.push(sql<SqlBool>`j.pool = ${f.pool}`);
  if (f.status) c.push(sql<SqlBool>`j.status = ${f.status}`);
  if (f.org) c.push(sql<SqlBool>`j.tenant_id = ${f.org}`);
  if (f.kind) c.push(sql<SqlBool>`j.kind = ${f.kind}`);
  if (f.error_code) c.push(sql<SqlBool>`j.error_code = ${f.error_code}`);
  if (f.hide_system) c.push(sql<SqlBool>`not j.system`);
  return sql<SqlBool>`(${sql.join(c, sql` and `)})`;
}

export type AdminJobRow = JobRow & { org_name: string | null; repo_name: string | null; actor_email: string | null };

export async function listAdminJobs(db: Db, f: JobFilter, limit = 100): Promise<AdminJobRow[]> {
  const q = db
    .selectFrom("jobs as j")
    .leftJoin("organizations as o", "o.id", "j.tenant_id")
    .leftJoin("repositories as r", "r.id", "j.repo_id")
    .leftJoin("users as u", "u.id", "j.actor_user_id")
    .selectAll("j")
    .select(["o.name as org_name", "r.name as repo_name", "u.email as actor_email"])
    .orderBy("j.created_at", "desc")
    .orderBy("j.id", "desc")
    .limit(limit);
  return (await q.where(matches(f)).execute()) as AdminJobRow[];
}

export interface FailureGroup {
  kind: string;
  error_code: string | null;
  count: number;
  requeueable: number;
  last_at: Date | null;
  message: string | null;
}

export async function failureGroups(db: Db, f: JobFilter): Promise<FailureGroup[]> {
  const q = db
    .selectFrom("jobs as j")
    .select((eb) => [
      "j.kind",
      "j.error_code",
      eb.fn.countAll<string>().as("count"),
      eb.fn.countAll<string>().filterWhere(sql<SqlBool>`j.restartable and j.status in ('failed', 'refused')`).as("requeueable"),
      eb.fn.max("j.finished_at").as("last_at"),
      eb.fn.max("j.error_message").as("message"),
    ])
    .where("j.status", "in", [...FAILED])
    .groupBy(["j.kind", "j.error_code"])
    .orderBy(sql`count(*)`, "desc")
    .limit(50);
  const rows = await q.where(matches({ ...f, status: f.status && (FAILED as readonly string[]).includes(f.status) ? f.status : undefined })).execute();
  return rows.map((r) => ({ ...r, count: Number(r.count), requeueable: Number(r.requeueable), last_at: (r.last_at as Date | null) ?? null }));
}

export interface AttemptRow {
  attempt: number;
  lease_owner: string | null;
  started_at: Date | null;
  ended_at: Date;
  outcome: string;
  error_code: string | null;
  error_message: string | null;
}

export async function adminJobDetail(db: Db, id: string): Promise<{ job: AdminJobRow; attempts: AttemptRow[]; follow_ups: FollowUp[] } | undefined> {
  const job = (await db
    .selectFrom("jobs as j")
    .leftJoin("organizations as o", "o.id", "j.tenant_id")
    .leftJoin("repositories as r", "r.id", "j.repo_id")
    .leftJoin("users as u", "u.id", "j.actor_user_id")
    .selectAll("j")
    .select(["o.name as org_name", "r.name as repo_name", "u.email as actor_email"])
    .where("j.id", "=", id)
    .executeTakeFirst()) as AdminJobRow | undefined;
  if (!job) return undefined;
  const attempts = await db
    .selectFrom("job_attempts")
    .select(["attempt", "lease_owner", "started_at", "ended_at", "outcome", "error_code", "error_message"])
    .where("job_id", "=", id)
    .orderBy("attempt")
    .execute();
  const followUps = await followUpsOf(db, [id], MAX_JOB_FOLLOW_UPS);
  return { job, attempts, follow_ups: followUps.get(id) ?? [] };
}

/**
 * Requeues the failed or refused restartable jobs among `ids` (at most `limit`): status queued, due now,
 * one more attempt allowed, error and end cleared, not yet dispatched. Returns the rows requeued.
 */
export async function requeueJobs(db: Db, ids: readonly string[], now: Date): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  const r = await sql<JobRow>`
    update jobs
       set status = 'queued', run_at = ${now}, dispatched_at = null,
           max_attempts = greatest(max_attempts, attempts + 1),
           error_code = null, error_message = null, result = null,
           finished_at = null, cancel_requested_at = null, updated_at = ${now}
     where id = any(${[...ids]}::text[]) and restartable and status in ('failed', 'refused')
    returning *`.execute(db);
  return r.rows;
}

/** The ids of the requeueable jobs a filter selects (a replay of a group), newest first, at most `limit`. */
export async function requeueableIds(db: Db, f: JobFilter, limit: number): Promise<string[]> {
  const q = db
    .selectFrom("jobs as j")
    .select("j.id")
    .where("j.restartable", "=", true)
    .where("j.status", "in", (f.status && (REQUEUEABLE as readonly string[]).includes(f.status) ? [f.status] : [...REQUEUEABLE]) as JobStatus[])
    .orderBy("j.finished_at", "desc")
    .limit(limit);
  return (await q.where(matches({ ...f, status: undefined })).execute()).map((r) => r.id);
}

/**
 * The other jobs of one job's execution (organisation and session), nearest in submission time
 * first: the rows do not link a follow-up to the job that submitted it, so the console shows these.
 */
export async function sameExecutionJobs(db: Db, job: JobRow, limit = 10): Promise<AdminJobRow[]> {
  if (job.system || !job.tenant_id || !job.session_id) return [];
  return (await db
    .selectFrom("jobs as j")
    .selectAll("j")
    .select([sql<null>`null`.as("org_name"), sql<null>`null`.as("repo_name"), sql<null>`null`.as("actor_email")])
    .where("j.tenant_id", "=", job.tenant_id)
    .where("j.session_id", "=", job.session_id)
    .where("j.id", "<>", job.id)
    .orderBy(sql`abs(extract(epoch from (j.created_at - ${job.created_at}::timestamptz)))`)
    .limit(limit)
    .execute()) as AdminJobRow[];
}

/** What the jobs page's filters offer: organisations (with names), the kinds and the error codes jobs have. */
export async function filterOptions(db: Db): Promise<{ orgs: Array<{ id: string; name: string }>; kinds: string[]; codes: string[] }> {
  const [orgs, kinds, codes] = await Promise.all([
    db.selectFrom("organizations").select(["id", "name"]).orderBy("name").limit(200).execute(),
    sql<{ kind: string }>`select distinct kind from jobs order by kind limit 100`.execute(db),
    sql<{ error_code: string }>`select distinct error_code from jobs where error_code is not null order by error_code limit 100`.execute(db),
  ]);
  return { orgs, kinds: kinds.rows.map((r) => r.kind), codes: codes.rows.map((r) => r.error_code) };
}

/**
 * enqueueJob: inserts queued job rows and, unless `notify: false`, wakes the
 * PostgreSQL dispatcher (`pg_notify`, delivered on commit) in the same
 * statement. Pass the caller's transaction to enqueue atomically with its
 * other writes; BullMQ dispatch happens after commit (queues/dispatch), and
 * the reconciler covers a crash in between.
 *
 * `notify: false` is for callers that dispatch right after their own commit
 * (submitJob): a transaction that notifies holds PostgreSQL's global notify
 * lock through its commit, which serialises every such commit (measured: 16
 * parallel inserts fell from ≈1,200/s to ≈400/s with the notify inside).
 *
 * Parameters are stored redacted (core/redact.ts redactJson): a secret pasted
 * into a job's text never reaches the row, the queue or the handler.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Identity } from "../../core/execution/identity";
import { redactJson } from "../../core/redact";
import { executePrepared } from "../../core/prepare";
import type { Db, Tx } from "../../db/schema";
import type { JobRow, Pool } from "../jobs";

export const JOBS_CHANNEL = "codesynapse_jobs";

export interface NewJob {
  /** Chosen by the caller when it must match rows to requests (a batched submit); default a fresh id. */
  id?: string;
  kind: string;
  pool: Pool;
  params: unknown;
  repoId?: string | null;
  restartable: boolean;
  maxAttempts: number;
  /** null only for system jobs. */
  identity: Identity | null;
  /** The principal's ids (never a credential). null only for system jobs. */
  actor: { userId: string; apiKeyId: string | null; loginSessionId: string | null } | null;
  runAt?: Date;
  scheduleId?: string | null;
  /** false: nobody dispatches it now, the reconciler will on its next pass. Default true. */
  dispatched?: boolean;
  /** W3C traceparent of the submitting span (queues/trace-context.ts); the worker continues that trace. */
  traceparent?: string | null;
  /** The job that began this follow-up's chain (workers/pools/child-job.ts); absent for a submission of its own. */
  originJobId?: string | null;
}

export interface EnqueueOptions {
  /** Notify the PostgreSQL pools on commit (default true). false: the caller dispatches after commit. */
  notify?: boolean;
}

export function newJobId(): string {
  return `job_${randomUUID().replaceAll("-", "")}`;
}

/**
 * The columns a new row gets from its job, each sent as one array (`unnest`): one statement text
 * whatever the batch's size, so it is a named prepared statement, planned once per connection,
 * and nothing is built per row but the values. Sent as text and cast by the server, the same on
 * PostgreSQL and PGlite.
 */
const COLUMNS = [
  ["id", "text"],
  ["kind", "text"],
  ["pool", "text"],
  ["params", "jsonb"],
  ["repo_id", "text"],
  ["system", "boolean"],
  ["tenant_id", "text"],
  ["subject_id", "text"],
  ["session_id", "text"],
  ["parent_session_id", "text"],
  ["actor_user_id", "text"],
  ["api_key_id", "text"],
  ["login_session_id", "text"],
  ["restartable", "boolean"],
  ["max_attempts", "int"],
  ["run_at", "timestamptz"],
  ["dispatched_at", "timestamptz"],
  ["schedule_id", "text"],
  ["traceparent", "text"],
  ["origin_job_id", "text"],
] as const;

const NAMES = sql.raw(COLUMNS.map(([c]) => c).join(", "));
const CAST = sql.raw(COLUMNS.map(([c, t]) => `t.${c}::${t}`).join(", "));

/** A job's values in COLUMNS' order, as the text the server casts. */
function valuesOf(j: NewJob, now: string): Array<string | null> {
  const at = (d: Date | undefined) => (d ? d.toISOString() : now);
  return [
    j.id ?? newJobId(),
    j.kind,
    j.pool,
    JSON.stringify(redactJson(j.params ?? {})),
    j.repoId ?? null,
    String(j.identity === null),
    j.identity?.tenant_id ?? null,
    j.identity?.subject_id ?? null,
    j.identity?.session_id ?? null,
    j.identity?.parent_session_id ?? null,
    j.actor?.userId ?? null,
    j.actor?.apiKeyId ?? null,
    j.actor?.loginSessionId ?? null,
    String(j.restartable),
    String(j.maxAttempts),
    at(j.runAt),
    // The submitter dispatches right after commit; the reconciler re-dispatches what is still queued later.
    j.dispatched === false ? null : now,
    j.scheduleId ?? null,
    j.traceparent ?? null,
    j.originJobId ?? null,
  ];
}

export async function enqueueJobs(db: Db | Tx, now: Date, jobs: NewJob[], opts: EnqueueOptions = {}): Promise<JobRow[]> {
  if (jobs.length === 0) return [];
  const at = now.toISOString();
  const columns: Array<Array<string | null>> = COLUMNS.map(() => new Array<string | null>(jobs.length));
  jobs.forEach((j, r) => valuesOf(j, at).forEach((v, c) => (columns[c]![r] = v)));
  const notify = opts.notify !== false;
  const arrays = sql.join(columns.map((values) => sql`${values}::text[]`));
  const query = sql<JobRow & { notified?: unknown }>`with t as (
      select * from unnest(${arrays}) as t(${NAMES})
    ), j as (
      insert into jobs (${NAMES}, status, attempts, created_at, updated_at)
      select ${CAST}, 'queued', 0, ${now}, ${now} from t
      on conflict do nothing
      returning *
    )
    select j.*${notify ? sql`, pg_notify(${JOBS_CHANNEL}, j.pool) as notified` : sql``} from j`;
  const out = await executePrepared(db, notify ? "enqueue_jobs_notify" : "enqueue_jobs", query);
  return notify ? out.rows.map(({ notified: _n, ...row }) => row as JobRow) : out.rows;
}

/** One job; undefined when a unique rule refused it (a schedule's job still live). */
export async function enqueueJob(db: Db | Tx, now: Date, job: NewJob, opts: EnqueueOptions = {}): Promise<JobRow | undefined> {
  return (await enqueueJobs(db, now, [job], opts))[0];
}

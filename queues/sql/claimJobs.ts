/**
 * claimJobs: THE claim, shared by both dispatch paths (JOB-2). One statement:
 * a `for update skip locked` CTE picks due queued rows of one pool (or the
 * given ids, when a caller names the rows), and the `update … returning`
 * marks them running, bumps `attempts` and sets a fresh lease (owner, random
 * token, deadline). Concurrent claimers never get the same row.
 * Which rows, and in what order, is ./fairShare.ts: FIFO, or fair share across
 * organisations and sessions (`fair`) — still this one statement.
 */
import { sql } from "kysely";
import { executePrepared } from "../../core/prepare";
import type { Db } from "../../db/schema";
import type { AuthRow } from "../../core/authorize";
import { AUTHORIZE_COLUMNS, AUTHORIZE_READ } from "../../db/sql/identity/authorize-read";
import type { JobRow } from "../jobs";
import { nextRows, type FairShare } from "./fairShare";

export interface ClaimOptions {
  pool: string;
  workerId: string;
  leaseMs: number;
  limit: number;
  now: Date;
  /** Restrict to these job ids. Both sources claim by turns, not by id (workers/sources/bullmq.ts); tests claim a named row this way. */
  ids?: readonly string[];
  /** Fair share across organisations, then sessions (./fairShare.ts); absent: FIFO by run_at. */
  fair?: FairShare;
}

export async function claimJobs(db: Db, o: ClaimOptions): Promise<JobRow[]> {
  return (await claim(db, o, false)).map((c) => c.row);
}

/** A claimed row, with what authorize() reads for its identity — read by the claiming statement itself. */
export interface CheckedClaim {
  row: JobRow;
  /** Absent for rows without a complete principal (system jobs, broken rows): the runner decides. */
  auth?: AuthRow;
}

/**
 * claimJobsChecked: the same claim, and in the SAME statement (one round trip,
 * one commit) the recheck-before-work read of every claimed row with an
 * identity: authorize()'s own statement (AUTHORIZE_READ) over the recorded
 * (session_id, tenant_id, actor_user_id, api_key_id, login_session_id, repo_id). Nothing is decided here; the runner
 * applies authorize()'s rules to that row (an earlier read, core/authorize.ts) before any work. The
 * read happens after the claim's lock was taken and before the handler starts,
 * exactly where a separate recheck statement would have run — one round trip
 * earlier.
 */
export async function claimJobsChecked(db: Db, o: ClaimOptions): Promise<CheckedClaim[]> {
  return claim(db, o, true);
}

const AUTH_PREFIX = "auth_";
/** The read's columns as the claim selects them (`a.<col> as auth_<col>`), built once: the claim is a hot statement. */
const AUTH_SELECT = sql.join(AUTHORIZE_COLUMNS.map((c) => sql`a.${sql.ref(c)} as ${sql.ref(AUTH_PREFIX + c)}`));
/** [selected name, AuthRow field] of each read column. */
const AUTH_FIELDS: ReadonlyArray<readonly [string, string]> = AUTHORIZE_COLUMNS.map((c) => [AUTH_PREFIX + c, c]);
const AUTH_JOB_ID = `${AUTH_PREFIX}job_id`;
/** Each claimed row's place in the order the claim chose it (./fairShare.ts `next.pos`): the rows come back in it. */
const CLAIM_POS = "claim_pos";

async function claim(db: Db, o: ClaimOptions, checked: boolean): Promise<CheckedClaim[]> {
  if (o.limit <= 0 || (o.ids && o.ids.length === 0)) return [];
  const expires = new Date(o.now.getTime() + o.leaseMs);
  // Named prepared statements (core/prepare.ts): one text per claim variant (FIFO, fair, ids).
  const update = sql`${nextRows(o)}, claimed as (
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
    returning j.*, next.pos as ${sql.ref(CLAIM_POS)})`;
  if (!checked) {
    const r = await executePrepared(db, "claim_jobs", sql<JobRow & { [CLAIM_POS]?: unknown }>`${update} select * from claimed order by ${sql.ref(CLAIM_POS)}`);
    return r.rows.map(({ [CLAIM_POS]: _pos, ...row }) => ({ row: row as JobRow }));
  }
  // The read runs per claimed row, as a lateral subquery over a one-row `q` made from that row:
  // linear in the batch. (Joining a CTE of all reads back to the claimed rows was quadratic: the
  // generic plan estimates one row per CTE and nests the loops — 256 rows read 65,536 times.)
  const r = await executePrepared(
    db,
    "claim_jobs_checked",
    sql<Record<string, unknown>>`${update}
    select c.*, a.i as auth_job_id, ${AUTH_SELECT}
      from claimed c
      left join lateral (
        with q as (
          select c.id as i, c.session_id, c.tenant_id as org_id, c.actor_user_id as user_id, c.api_key_id, null::text as key_prefix,
                 c.login_session_id, null::text as login_token_hash,
                 case when length(c.repo_id) between 1 and 128 then c.repo_id end as repo_ref
           where not c.system and c.session_id is not null and c.tenant_id is not null and c.actor_user_id is not null
        ) ${AUTHORIZE_READ}
      ) a on true
     order by c.${sql.ref(CLAIM_POS)}`,
  );
  // The job's own columns are the result's other columns: found once per result, not per row.
  const jobKeys = r.rows.length > 0 ? Object.keys(r.rows[0]!).filter((k) => !k.startsWith(AUTH_PREFIX) && k !== CLAIM_POS) : [];
  return r.rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const k of jobKeys) row[k] = raw[k];
    if (raw[AUTH_JOB_ID] === null || raw[AUTH_JOB_ID] === undefined) return { row: row as unknown as JobRow };
    const auth: Record<string, unknown> = {};
    for (const [from, to] of AUTH_FIELDS) auth[to] = raw[from];
    return { row: row as unknown as JobRow, auth: auth as unknown as AuthRow };
  });
}

/**
 * insertAuthorizedJobs: a batch of submissions' authorization read and their INSERT in ONE
 * statement (one round trip instead of two), for submissions without an idempotency key and
 * without a queued cap (queues/submit.ts sends the others the two-step way).
 *
 * Inputs: per submission, its authorize() query (a recorded principal, the session, the
 * repository reference and level) and the job row it would write. The statement reads
 * authorize()'s own AUTHORIZE_READ for every submission, inserts the rows whose read passes
 * a guard written in SQL, and returns every read (with the inserted row, if any).
 *
 * Invariant: the guard is never looser than core/authorize-rules.ts `decide` for a recorded
 * principal — each of its conditions is one of decide's, for the principal credential, with
 * the identity and repository the row carries; anything it cannot tell (a submission whose
 * principal names neither an API key nor a sign-in, an identity that is not the principal's)
 * is not inserted here. The caller still runs `decide` over every returned read: a row the
 * guard refused but `decide` admits goes the two-step way with this read (sent after the
 * request was made); a row the guard inserted but `decide` refuses would be a guard bug —
 * the caller removes it and answers the refusal (test/integration covers each refusal).
 * The rows are inserted in one statement: all of the guard's rows or none.
 */
import { sql } from "kysely";
import { AUTHORIZE_COLUMNS, AUTHORIZE_INPUT, AUTHORIZE_READ, queryInput, type AuthQuery, type AuthRow } from "../../core/authorize";
import { PREPARE } from "../../core/prepare";
import type { Db, RepoLevel } from "../../db/schema";
import type { JobRow } from "../jobs";
import { newJobValues, type NewJob } from "./enqueueJob";

const AUTH_PREFIX = "auth__";
const LEVEL_RANK: Record<RepoLevel, number> = { read: 1, write: 2, admin: 3 };

export interface AuthorizedInsert {
  query: AuthQuery;
  /** The row to write when the read authorizes it (its identity and actor are the query's principal). */
  job: NewJob & { id: string };
  /** The repository level the kind needs (the row's repo_id is then the one the read resolved). */
  repoLevel: RepoLevel | undefined;
}

export interface InsertOutcome {
  /** authorize()'s read for the submission (AUTHORIZE_READ yields one row per query). */
  auth: AuthRow;
  /** The inserted row; absent when the guard refused it (or a unique rule did). */
  row?: JobRow;
}

export async function insertAuthorizedJobs(db: Db, now: Date, items: readonly AuthorizedInsert[]): Promise<InsertOutcome[]> {
  if (items.length === 0) return [];
  const values = sql.join(
    items.map((it, i) => {
      const [s, org, user, key, prefix, login, token, repo] = queryInput(it.query);
      return sql`(${String(i)}::text, ${s}::text, ${org}::text, ${user}::text, ${key}::text, ${prefix}::text, ${login}::text, ${token}::text, ${repo}::text)`;
    }),
  );
  const wanted = sql.join(items.map((it, i) => sql`(${String(i)}::text, ${it.job.id}::text, ${it.repoLevel ? LEVEL_RANK[it.repoLevel] : null}::int)`));
  const rows = newJobValues(items.map((it) => it.job), now).map((r) => ({ ...r, params: JSON.parse(r.params) as unknown }));
  const cols = Object.keys(rows[0]!);
  const insertCols = sql.join(cols.map((c) => sql.ref(c)));
  const selectCols = sql.join(cols.map((c) => (c === "repo_id" ? sql`case when n.need is null then null else a.repo_id end` : sql`r.${sql.ref(c)}`)));
  const authCols = sql.join(AUTHORIZE_COLUMNS.map((c) => sql`a.${sql.ref(c)} as ${sql.ref(AUTH_PREFIX + c)}`));
  const r = await sql<Record<string, unknown>>`${PREPARE}
    with q(${sql.join(AUTHORIZE_INPUT.map((c) => sql.ref(c)))}) as (values ${values}),
    a as materialized (${AUTHORIZE_READ}),
    n(i, id, need) as (values ${wanted}),
    ins as (
      insert into jobs (${insertCols})
      select ${selectCols}
        from jsonb_populate_recordset(null::jobs, ${JSON.stringify(rows)}::jsonb) r
        join n on n.id = r.id
        join a on a.i = n.i
       where r.tenant_id is not null and r.actor_user_id is not null
         and case when r.api_key_id is not null
                  then a.key_id is not null and a.key_user_id = r.actor_user_id and a.key_org_id = r.tenant_id and a.key_revoked_at is null
                  when r.login_session_id is not null
                  then a.login_id is not null and a.login_user_id = r.actor_user_id and a.login_revoked_at is null
                       and a.login_expires_at > ${now}::timestamptz
                  else false end
         and a.user_id is not null and a.user_suspended_at is null
         and coalesce(a.memberships, 0) > 0 and a.membership_role is not null and a.org_id is not null
         and a.org_suspended_at is null and a.membership_suspended_at is null
         and a.org_id = r.tenant_id and a.user_id = r.subject_id and a.user_id = r.actor_user_id
         and r.session_id = r.parent_session_id
         and a.binding_org_id = a.org_id and a.binding_user_id = a.user_id
         and a.binding_expires_at > ${now}::timestamptz
         and a.binding_tombstone_reason is null and a.binding_tombstoned_at is null
         and (a.binding_kind is distinct from 'dashboard'
              or (a.key_id is null and a.login_id is not null and a.binding_login_session_id = a.login_id))
         and (n.need is null
              or (a.repo_id is not null and a.repo_level is not null
                  and case a.repo_level when 'read' then 1 when 'write' then 2 when 'admin' then 3 else 0 end >= n.need))
      on conflict do nothing
      returning *)
    select ins.*, n.i as ${sql.ref(AUTH_PREFIX + "i")}, ${authCols}
      from n
      left join a on a.i = n.i
      left join ins on ins.id = n.id`.execute(db);
  const out: InsertOutcome[] = [];
  for (const raw of r.rows) {
    const row: Record<string, unknown> = {};
    const auth: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (k.startsWith(AUTH_PREFIX)) auth[k.slice(AUTH_PREFIX.length)] = v;
      else row[k] = v;
    }
    const i = Number(auth.i);
    delete auth.i;
    out[i] = { auth: auth as unknown as AuthRow, ...(row.id ? { row: row as unknown as JobRow } : {}) };
  }
  return out;
}

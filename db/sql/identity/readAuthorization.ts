/**
 * readAuthorization: the rows of many authorization queries in one statement (./authorize-read.ts),
 * in query order (undefined: the statement found nothing for that query). Prepared (named): for
 * authorize()'s seven-join read, planning was most of the statement's server time.
 */
import { sql } from "kysely";
import { executePrepared } from "../../../core/prepare";
import { validRepoRef, type AuthQuery, type AuthRow } from "../../../core/authorize-rules";
import type { Db } from "../../schema";
import { AUTHORIZE_INPUT, AUTHORIZE_READ } from "./authorize-read";

/** The `q` values of one query (the presented key's hash never leaves memory: only its prefix is sent). */
export function queryInput(q: AuthQuery): [string | null, string | null, string | null, string | null, string | null, string | null, string | null, string | null] {
  const c = q.credential;
  const repoRef = q.repo && validRepoRef(q.repo.ref) ? q.repo.ref : null;
  const session = q.sessionId ?? null;
  switch (c.kind) {
    case "api_key":
      return [session, null, null, null, c.prefix, null, null, repoRef];
    case "browser":
      return [session, c.orgId ?? null, null, null, null, null, c.tokenHash, repoRef];
    case "principal":
      return [session, c.orgId, c.userId, c.apiKeyId, null, c.loginSessionId, null, repoRef];
  }
}

const NULL_TEXT = sql`null::text`;
/** The input row's column list, built once (a hot statement). */
const INPUT_COLUMNS = sql.join(AUTHORIZE_INPUT.map((c) => sql.ref(c)));

/**
 * One `q` value as the statement takes it. For a single query an absent value is written as a
 * NULL literal, not sent as a parameter: the statement is prepared (named) and the planner then
 * prunes the joins that value switches off (a key's lookup by id, the sign-in joins, the
 * repository) in the generic plan too. With every value a parameter, the generic plan covered all
 * credential kinds at once, cost more than each custom plan, and PostgreSQL planned the statement
 * again on every call (0.7 ms of planning for 0.2 ms of execution). The texts stay few — one per
 * pattern of absent values (at most 2^8), as a prepared statement per text must be. A batch keeps
 * every value a parameter (its texts would multiply with the patterns of its rows).
 */
function qValue(v: string | null, literalNull: boolean) {
  return v === null && literalNull ? NULL_TEXT : sql`${v}::text`;
}

export async function readAuthorization(db: Db, queries: readonly AuthQuery[]): Promise<Array<AuthRow | undefined>> {
  if (queries.length === 0) return [];
  const single = queries.length === 1;
  const values = sql.join(
    queries.map((q, i) => {
      const row = [String(i), ...queryInput(q)].map((v) => qValue(v, single));
      return sql`(${sql.join(row)})`;
    }),
  );
  const r = await executePrepared(
    db,
    "read_authorization",
    sql<AuthRow & { i: string }>`
    with q(${INPUT_COLUMNS}) as (values ${values})
    ${AUTHORIZE_READ}`,
  );
  const byIndex = new Map(r.rows.map((row) => [Number(row.i), row]));
  return queries.map((_, i) => byIndex.get(i));
}

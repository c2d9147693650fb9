/**
 * finishJob: running → succeeded, fenced by the lease token. It runs first in
 * the persist transaction: it takes the row lock (no sweeper can reclaim the
 * row until commit) and, if the lease was lost, returns false so the caller
 * rolls back the handler's writes. The statement is endJob's, with the result.
 */
import { sql } from "kysely";
import { redactJson } from "../../core/redact";
import { executePrepared } from "../../core/prepare";
import type { Db, Tx } from "../../db/schema";
import { endJob } from "./endJob";

export async function finishJob(tx: Tx | Db, o: { id: string; token: string; now: Date; result: unknown }): Promise<boolean> {
  return endJob(tx, { ...o, status: "succeeded", errorCode: null, result: o.result ?? null });
}

/** The result of a job this transaction just finished, when only its persist step could count it (stored redacted, as endJob does). */
export async function setJobResult(tx: Tx, id: string, result: unknown): Promise<void> {
  await tx
    .updateTable("jobs")
    .set({ result: result === undefined || result === null ? null : JSON.stringify(redactJson(result)) })
    .where("id", "=", id)
    .execute();
}

/**
 * finishJobs: many jobs with nothing else to write, running → succeeded in ONE
 * statement, each row fenced by its own lease token exactly as finishJob does.
 * Returns the ids that were finished; a job missing from it lost its lease.
 * Results are stored redacted (core/redact.ts redactJson), as endJob does.
 */
export async function finishJobs(db: Db, items: ReadonlyArray<{ id: string; token: string; now: Date; result: unknown }>): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const values = sql.join(
    items.map((o) => sql`(${o.id}::text, ${o.token}::text, ${o.result === undefined || o.result === null ? null : JSON.stringify(redactJson(o.result))}::jsonb, ${o.now}::timestamptz)`),
  );
  // Prepared (core/prepare.ts): one text per batch size.
  const r = await executePrepared(
    db,
    "finish_jobs",
    sql<{ id: string }>`
    update jobs j
       set status = 'succeeded', result = v.result, error_code = null,
           lease_owner = null, lease_token = null, lease_expires_at = null,
           finished_at = v.now, updated_at = v.now
      from (values ${values}) as v(id, token, result, now)
     where j.id = v.id and j.lease_token = v.token and j.status = 'running'
    returning j.id`,
  );
  return new Set(r.rows.map((x) => x.id));
}

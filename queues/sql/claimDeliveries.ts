/**
 * claimDeliveries: claims due webhook deliveries (pending and due, or sending with an expired lease) in
 * one statement: `skip locked`, a fresh lease token, attempts + 1; each with the organisation's webhook
 * (none when it was removed) and the job it reports (queues/webhooks.ts).
 */
import { sql } from "kysely";
import { randomToken } from "../../core/crypto";
import type { Db } from "../../db/schema";

/** A claimed delivery, with what the sender needs to build and sign it. */
export interface ClaimedDelivery {
  id: string;
  org_id: string;
  job_id: string;
  event: string;
  attempts: number;
  created_at: Date;
  url: string | null;
  secret: string | null;
  job: { kind: string; status: string; repo_id: string | null; error_code: string | null; attempts: number; user_id: string | null; created_at: Date; finished_at: Date | null };
}

export async function claimDeliveries(db: Db, o: { now: Date; leaseMs: number; limit: number }): Promise<{ token: string; rows: ClaimedDelivery[] }> {
  const token = randomToken(16);
  const until = new Date(o.now.getTime() + o.leaseMs);
  const r = await sql<Record<string, any>>`
    with due as (
      select d.id, w.url, w.secret, j.kind, j.status as job_status, j.repo_id, j.error_code, j.attempts as job_attempts,
             j.subject_id, j.created_at as job_created_at, j.finished_at
        from webhook_deliveries d
        join jobs j on j.id = d.job_id
        left join org_webhooks w on w.org_id = d.org_id and w.enabled
       where (d.status = 'pending' and d.next_attempt_at <= ${o.now})
          or (d.status = 'sending' and d.lease_expires_at <= ${o.now})
       order by d.next_attempt_at
       limit ${o.limit}
       for update of d skip locked)
    update webhook_deliveries d
       set status = 'sending', lease_token = ${token}, lease_expires_at = ${until}, attempts = d.attempts + 1, updated_at = ${o.now}
      from due
     where d.id = due.id
    returning d.id, d.org_id, d.job_id, d.event, d.attempts, d.created_at, due.*`.execute(db);
  return {
    token,
    rows: r.rows.map((x) => ({
      id: x.id,
      org_id: x.org_id,
      job_id: x.job_id,
      event: x.event,
      attempts: x.attempts,
      created_at: new Date(x.created_at),
      url: x.url,
      secret: x.secret,
      job: {
        kind: x.kind,
        status: x.job_status,
        repo_id: x.repo_id,
        error_code: x.error_code,
        attempts: x.job_attempts,
        user_id: x.subject_id,
        created_at: new Date(x.job_created_at),
        finished_at: x.finished_at ? new Date(x.finished_at) : null,
      },
    })),
  };
}


/**
 * Per-organisation completion webhooks: the configuration an org's
 * operator sets, and the durable delivery rows.
 *
 * States of a delivery:
 *
 *   pending ──claim──▶ sending ──2xx──────────────────────▶ delivered
 *      ▲                  ├─ error, attempts left ──────────▶ pending (next_attempt_at = now + jittered backoff)
 *      │                  └─ error, none left / no webhook ▶ failed
 *      └── lease expired (the sender died mid-send) ◀┘
 *
 * A delivery is recorded by a trigger in the same transaction as the job's
 * terminal status (migration 20261203_0500), whichever statement writes it, for
 * the job's organisation only. Sending is at least once: a sender that dies
 * after the receiver answered but before `finishDelivery` leaves the row to be
 * claimed again when its lease runs out, so receivers dedupe by the delivery id
 * (`CodeSynapse-Delivery`). Every write of a sender names its lease token.
 * The secret is read only to sign; it is never logged nor listed.
 */
import { sql } from "kysely";
import { randomToken } from "../core/crypto";
import { AppError } from "../core/errors";
import { WEBHOOK_URL_MAX_CHARS } from "../core/limits";
import type { RetryPolicy } from "../core/retry";
import type { Db } from "../db/schema";
import type { WebhookDeliveryStatus } from "../db/job-events-schema";

/** Retries of a failed delivery (core/retry.ts's full-jitter backoff): 8 attempts over about an hour. */
export const WEBHOOK_RETRY: RetryPolicy = { attempts: 8, baseMs: 10_000, maxMs: 20 * 60_000 };

const MIN_SECRET_CHARS = 24;

function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("validation_failed", { message: "--url must be an absolute http(s) URL.", details: { flag: "url" } });
  }
  if (raw.length > WEBHOOK_URL_MAX_CHARS || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
    throw new AppError("validation_failed", { message: `--url must be an http(s) URL of at most ${WEBHOOK_URL_MAX_CHARS} characters, without credentials.`, details: { flag: "url" } });
  }
  return url.toString();
}

/**
 * Sets (or replaces) the organisation's webhook. Without `secret` one is generated. The secret is
 * returned here, once, for the operator to give the receiver; nothing lists it afterwards.
 */
export async function setOrgWebhook(db: Db, now: Date, input: { orgId: string; url: string; secret?: string | undefined }): Promise<{ org_id: string; url: string; secret: string }> {
  const url = checkUrl(input.url);
  const secret = input.secret ?? `whsec_${randomToken(32)}`;
  if (secret.length < MIN_SECRET_CHARS || secret.length > 256 || !/^[\x21-\x7e]+$/.test(secret)) {
    throw new AppError("validation_failed", { message: `--secret must be ${MIN_SECRET_CHARS} to 256 printable ASCII characters.`, details: { flag: "secret" } });
  }
  const org = await db.selectFrom("organizations").select("id").where("id", "=", input.orgId).executeTakeFirst();
  if (!org) throw new AppError("not_found", { message: "No such organisation." });
  await db
    .insertInto("org_webhooks")
    .values({ org_id: input.orgId, url, secret, enabled: true, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("org_id").doUpdateSet({ url, secret, enabled: true, updated_at: now }))
    .execute();
  return { org_id: input.orgId, url, secret };
}

/** Removes the organisation's webhook; deliveries not yet sent then fail as `webhook_removed`. */
export async function removeOrgWebhook(db: Db, orgId: string): Promise<{ org_id: string; removed: boolean }> {
  const r = await db.deleteFrom("org_webhooks").where("org_id", "=", orgId).executeTakeFirst();
  return { org_id: orgId, removed: Number(r.numDeletedRows) > 0 };
}

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

/**
 * Claims due deliveries (pending and due, or sending with an expired lease) in one statement:
 * `skip locked`, a fresh lease token, attempts + 1.
 */
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

export type DeliveryOutcome =
  | { status: "delivered"; httpStatus: number }
  | { status: "pending"; nextAttemptAt: Date; httpStatus: number | null; error: string }
  | { status: "failed"; httpStatus: number | null; error: string };

/** Writes an attempt's outcome, fenced by the lease token; false when the lease was lost. */
export async function finishDelivery(db: Db, id: string, token: string, now: Date, o: DeliveryOutcome): Promise<boolean> {
  const r = await db
    .updateTable("webhook_deliveries")
    .set({
      status: o.status,
      lease_token: null,
      lease_expires_at: null,
      last_status: o.httpStatus,
      last_error: o.status === "delivered" ? null : o.error,
      updated_at: now,
      ...(o.status === "delivered" ? { delivered_at: now } : {}),
      ...(o.status === "pending" ? { next_attempt_at: o.nextAttemptAt } : {}),
    })
    .where("id", "=", id)
    .where("lease_token", "=", token)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What operators see of an organisation's deliveries, newest first (no secret, no URL query). */
export async function listDeliveries(db: Db, orgId: string, o: { status?: WebhookDeliveryStatus; limit?: number } = {}) {
  let q = db
    .selectFrom("webhook_deliveries")
    .select(["id", "job_id", "event", "status", "attempts", "last_status", "last_error", "next_attempt_at", "delivered_at", "created_at"])
    .where("org_id", "=", orgId);
  if (o.status) q = q.where("status", "=", o.status);
  const rows = await q.orderBy("created_at", "desc").orderBy("id").limit(Math.min(Math.max(o.limit ?? 50, 1), 500)).execute();
  return rows.map((r) => ({
    ...r,
    next_attempt_at: new Date(r.next_attempt_at).toISOString(),
    delivered_at: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

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
 * The secret is read only to sign; it is never logged nor listed. The statements are
 * queues/sql/ (claimDeliveries, finishDelivery, listDeliveries, upsertOrgWebhook, deleteOrgWebhook).
 */
import { randomToken } from "../core/crypto";
import { AppError } from "../core/errors";
import { WEBHOOK_URL_MAX_CHARS } from "../core/limits";
import type { RetryPolicy } from "../core/retry";
import type { Db } from "../db/schema";
import { deleteOrgWebhook } from "./sql/deleteOrgWebhook";
import { upsertOrgWebhook } from "./sql/upsertOrgWebhook";

export { claimDeliveries, type ClaimedDelivery } from "./sql/claimDeliveries";
export { finishDelivery, type DeliveryOutcome } from "./sql/finishDelivery";
export { listDeliveries } from "./sql/listDeliveries";

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
  if (!(await upsertOrgWebhook(db, now, { orgId: input.orgId, url, secret }))) throw new AppError("not_found", { message: "No such organisation." });
  return { org_id: input.orgId, url, secret };
}

/** Removes the organisation's webhook; deliveries not yet sent then fail as `webhook_removed`. */
export async function removeOrgWebhook(db: Db, orgId: string): Promise<{ org_id: string; removed: boolean }> {
  return { org_id: orgId, removed: await deleteOrgWebhook(db, orgId) };
}

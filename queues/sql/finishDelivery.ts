/** finishDelivery: writes a delivery attempt's outcome, fenced by the lease token (queues/webhooks.ts). */
import type { Db } from "../../db/schema";

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


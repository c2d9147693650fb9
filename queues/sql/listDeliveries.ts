/** listDeliveries: what operators see of an organisation's webhook deliveries (queues/webhooks.ts). */
import type { Db } from "../../db/schema";
import type { WebhookDeliveryStatus } from "../../db/job-events-schema";

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

/**
 * upsertOrgWebhook: sets (or replaces) an organisation's webhook, enabled. False, writing nothing, when
 * the organisation does not exist. The URL and secret are checked by the caller (queues/webhooks.ts).
 */
import type { Db } from "../../db/schema";

export async function upsertOrgWebhook(db: Db, now: Date, w: { orgId: string; url: string; secret: string }): Promise<boolean> {
  const org = await db.selectFrom("organizations").select("id").where("id", "=", w.orgId).executeTakeFirst();
  if (!org) return false;
  await db
    .insertInto("org_webhooks")
    .values({ org_id: w.orgId, url: w.url, secret: w.secret, enabled: true, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("org_id").doUpdateSet({ url: w.url, secret: w.secret, enabled: true, updated_at: now }))
    .execute();
  return true;
}

/** deleteOrgWebhook: removes an organisation's webhook; true when there was one. */
import type { Db } from "../../db/schema";

export async function deleteOrgWebhook(db: Db, orgId: string): Promise<boolean> {
  const r = await db.deleteFrom("org_webhooks").where("org_id", "=", orgId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

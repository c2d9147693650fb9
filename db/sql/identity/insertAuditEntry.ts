/** insertAuditEntry: one audit log record (its details as JSON). */
import type { AuditEntry } from "../../../core/audit";
import type { Db } from "../../schema";

export async function insertAuditEntry(db: Db, e: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at: e.at,
      org_id: e.orgId,
      actor_user_id: e.actorUserId,
      actor_key_id: e.actorKeyId,
      action: e.action,
      outcome: e.outcome,
      session_target: e.sessionTarget,
      details: e.details ? JSON.stringify(e.details) : null,
    })
    .execute();
}

/** readSessionReceipt: a session's binding (owner, how it ended) joined with its erasure receipt, if any. */
import type { SessionReceiptRead } from "../../../core/retention/receipt-store";
import type { Db } from "../../schema";

export async function readSessionReceipt(db: Db, sessionId: string): Promise<SessionReceiptRead | undefined> {
  return db
    .selectFrom("session_bindings as b")
    .leftJoin("session_erasure_receipts as r", (j) => j.onRef("r.tenant_id", "=", "b.org_id").onRef("r.session_id", "=", "b.session_id"))
    .select(["b.org_id", "b.user_id", "b.tombstoned_at", "b.tombstone_reason", "r.stores", "r.passes", "r.done", "r.updated_at"])
    .where("b.session_id", "=", sessionId)
    .executeTakeFirst();
}

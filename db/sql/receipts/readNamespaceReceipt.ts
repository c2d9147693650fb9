/** readNamespaceReceipt: the stored receipt of one cleared namespace (session, repository), if any. */
import type { NamespaceReceiptRow, NamespaceTarget } from "../../../core/retention/receipt-store";
import type { Db } from "../../schema";

export async function readNamespaceReceipt(db: Db, t: NamespaceTarget): Promise<NamespaceReceiptRow | undefined> {
  return db
    .selectFrom("namespace_erasure_receipts")
    .select(["stores", "clears", "done", "created_at", "updated_at"])
    .where("tenant_id", "=", t.tenant_id)
    .where("session_id", "=", t.session_id)
    .where("repo_id", "=", t.repo_id)
    .executeTakeFirst();
}

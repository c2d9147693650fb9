/**
 * retryNamespaceReceipts: the sweep's retry of clear receipts (queues/memory-erasure.ts). In one
 * transaction: up to `limit` receipts not done whose `jobs:results` store is pending, least recently
 * updated first, taken `FOR UPDATE SKIP LOCKED` (two sweeps never work on one receipt at once); for each,
 * `redo` runs in the transaction and what it answers is stored.
 */
import { sql } from "kysely";
import type { NamespaceStoreReceipt, PendingReceipt } from "../../../core/retention/receipt-store";
import type { Db, Tx } from "../../schema";

type Redo = (tx: Tx, r: PendingReceipt) => Promise<{ stores: NamespaceStoreReceipt[]; done: boolean }>;

export async function retryNamespaceReceipts(db: Db, limit: number, now: Date, redo: Redo): Promise<Array<{ done: boolean }>> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("namespace_erasure_receipts")
      .select(["tenant_id", "session_id", "repo_id", "stores"])
      .where("done", "=", false)
      .where(sql<boolean>`stores @> '[{"store": "jobs:results", "status": "pending"}]'::jsonb`)
      .orderBy("updated_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    const out: Array<{ done: boolean }> = [];
    for (const row of rows) {
      const n = await redo(tx, row);
      await tx
        .updateTable("namespace_erasure_receipts")
        .set({ stores: JSON.stringify(n.stores), done: n.done, updated_at: now })
        .where("tenant_id", "=", row.tenant_id)
        .where("session_id", "=", row.session_id)
        .where("repo_id", "=", row.repo_id)
        .execute();
      out.push({ done: n.done });
    }
    return out;
  });
}

/**
 * retryForgetReceipts: the sweep's retry of forget receipts (queues/memory-erasure.ts). In one
 * transaction: up to `limit` receipts not done whose `jobs:results` or `jobs:quoting-results` store is
 * pending, least recently updated first, taken `FOR UPDATE SKIP LOCKED`; for each, `redo` runs in the
 * transaction and what it answers (stores, the fact IDs still needed, done) is stored.
 */
import { sql } from "kysely";
import type { NamespaceStoreReceipt, PendingForgetReceipt } from "../../../core/retention/receipt-store";
import type { Db, Tx } from "../../schema";

type Redo = (tx: Tx, r: PendingForgetReceipt) => Promise<{ stores: NamespaceStoreReceipt[]; fact_ids: string[]; done: boolean }>;

export async function retryForgetReceipts(db: Db, limit: number, now: Date, redo: Redo): Promise<Array<{ done: boolean }>> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("forget_erasure_receipts")
      .select(["tenant_id", "session_id", "repo_id", "stores", "fact_ids", "forgotten_at"])
      .where("done", "=", false)
      .where((eb) =>
        eb.or([
          sql<boolean>`stores @> '[{"store": "jobs:results", "status": "pending"}]'::jsonb`,
          sql<boolean>`stores @> '[{"store": "jobs:quoting-results", "status": "pending"}]'::jsonb`,
        ]),
      )
      .orderBy("updated_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    const out: Array<{ done: boolean }> = [];
    for (const row of rows) {
      const n = await redo(tx, row);
      await tx
        .updateTable("forget_erasure_receipts")
        .set({ stores: JSON.stringify(n.stores), fact_ids: JSON.stringify(n.fact_ids), done: n.done, updated_at: now })
        .where("tenant_id", "=", row.tenant_id)
        .where("session_id", "=", row.session_id)
        .where("repo_id", "=", row.repo_id)
        .execute();
      out.push({ done: n.done });
    }
    return out;
  });
}

/**
 * updateForgetReceipt: what a forget-session on repository memory answered, into its receipt. Creates
 * the row on the first forget or takes the existing one's lock, reading what it held, in one statement;
 * then stores what `next` (core/retention/receipts.ts) makes of it, with `forgotten_at` = now. One
 * transaction.
 */
import type { ForgetReceiptState, NamespaceTarget } from "../../../core/retention/receipt-store";
import type { Db } from "../../schema";

export async function updateForgetReceipt(db: Db, t: NamespaceTarget, now: Date, next: (was: ForgetReceiptState) => ForgetReceiptState & { done: boolean }): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("forget_erasure_receipts")
      .values({ tenant_id: t.tenant_id, session_id: t.session_id, repo_id: t.repo_id, stores: "[]", fact_ids: "[]", forgotten_at: now, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id", "repo_id"]).doUpdateSet({ updated_at: now }))
      .returning(["stores", "fact_ids", "forgets"])
      .executeTakeFirstOrThrow();
    const n = next(row);
    await tx
      .updateTable("forget_erasure_receipts")
      .set({ stores: JSON.stringify(n.stores), fact_ids: JSON.stringify(n.fact_ids), done: n.done, forgets: n.forgets, forgotten_at: now, updated_at: now })
      .where("tenant_id", "=", t.tenant_id)
      .where("session_id", "=", t.session_id)
      .where("repo_id", "=", t.repo_id)
      .execute();
  });
}

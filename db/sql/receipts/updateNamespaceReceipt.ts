/**
 * updateNamespaceReceipt: what clearing one namespace answered, into its receipt. Creates the row on the
 * first clear or takes the existing one's lock, reading what it held, in one statement; then stores what
 * `next` (core/retention/receipts.ts) makes of it. One transaction.
 */
import type { NamespaceReceiptRow, NamespaceTarget } from "../../../core/retention/receipt-store";
import type { Db } from "../../schema";

type Next = (was: Pick<NamespaceReceiptRow, "stores" | "clears">) => Pick<NamespaceReceiptRow, "stores" | "clears" | "done">;

export async function updateNamespaceReceipt(db: Db, t: NamespaceTarget, now: Date, next: Next): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("namespace_erasure_receipts")
      .values({ tenant_id: t.tenant_id, session_id: t.session_id, repo_id: t.repo_id, stores: "[]", created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id", "repo_id"]).doUpdateSet({ updated_at: now }))
      .returning(["stores", "clears"])
      .executeTakeFirstOrThrow();
    const n = next(row);
    await tx
      .updateTable("namespace_erasure_receipts")
      .set({ stores: JSON.stringify(n.stores), done: n.done, clears: n.clears, updated_at: now })
      .where("tenant_id", "=", t.tenant_id)
      .where("session_id", "=", t.session_id)
      .where("repo_id", "=", t.repo_id)
      .execute();
  });
}

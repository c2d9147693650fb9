/**
 * updateSessionReceipt: one cleanup pass's counts into an ended session's receipt. Creates the row on
 * the first pass, then, under its lock, stores what `next` (core/retention/receipts.ts) makes of what it
 * held; `done_at` is set when the receipt becomes done. One transaction.
 */
import type { CleanupTarget } from "../../../core/retention/cleaners";
import type { SessionReceiptState } from "../../../core/retention/receipt-store";
import type { Db } from "../../schema";

export async function updateSessionReceipt(db: Db, t: CleanupTarget, now: Date, next: (was: SessionReceiptState) => SessionReceiptState): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("session_erasure_receipts")
      .values({ tenant_id: t.tenant_id, session_id: t.session_id, stores: "[]", created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id"]).doNothing())
      .execute();
    const row = await tx
      .selectFrom("session_erasure_receipts")
      .select(["stores", "done", "passes"])
      .where("tenant_id", "=", t.tenant_id)
      .where("session_id", "=", t.session_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const n = next(row);
    await tx
      .updateTable("session_erasure_receipts")
      .set({ stores: JSON.stringify(n.stores), done: n.done, passes: n.passes, updated_at: now, ...(n.done && !row.done ? { done_at: now } : {}) })
      .where("tenant_id", "=", t.tenant_id)
      .where("session_id", "=", t.session_id)
      .execute();
  });
}

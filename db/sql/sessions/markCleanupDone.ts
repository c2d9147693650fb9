/** markCleanupDone: sets `cleanup_done_at`; only for tombstoned bindings (so it can never touch a live one). Answers how many. */
import type { CleanupTarget } from "../../../core/retention/cleaners";
import type { Tx } from "../../schema";

export async function markCleanupDone(tx: Tx, targets: readonly CleanupTarget[], now: Date): Promise<number> {
  if (targets.length === 0) return 0;
  const r = await tx
    .updateTable("session_bindings")
    .set({ cleanup_done_at: now })
    .where("session_id", "in", targets.map((t) => t.session_id))
    .where("tombstoned_at", "is not", null)
    .where("cleanup_done_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

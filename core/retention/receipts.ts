/**
 * The recorded erasure receipt of an ended session (revoked or expired): one row per session in
 * `session_erasure_receipts`, written by every cleanup pass (the revocation's own first pass and
 * each sweep that retries it). Per store (one per registered cleaner): how many items the passes
 * removed or redacted in total, and `done` or `pending`. The receipt is `done` once every store is.
 * Readable by whoever may revoke the session (its owner, or an owner/admin of its organisation);
 * anyone else gets `session_not_found`, as for revocation.
 */
import { AppError } from "../errors";
import { isValidId } from "../execution/identity";
import type { Db } from "../../db/schema";
import type { CleanupTarget } from "./cleaners";

export interface StorePass {
  store: string;
  removed: number;
  status: "done" | "pending";
}

export interface SessionErasure {
  session_id: string;
  cause: "revoked" | "expired";
  ended_at: string;
  stores: StorePass[];
  passes: number;
  done: boolean;
  updated_at: string | null;
}

/** Adds one pass's counts to the session's receipt (creating it on the first pass). */
export async function recordErasurePass(db: Db, t: CleanupTarget, pass: readonly StorePass[], now: Date): Promise<void> {
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
    const stores = new Map(row.stores.map((s) => [s.store, { ...s }]));
    for (const p of pass) {
      const was = stores.get(p.store);
      // A store once done stays done (its cleaner is idempotent and found nothing more).
      stores.set(p.store, { store: p.store, removed: (was?.removed ?? 0) + p.removed, status: was?.status === "done" ? "done" : p.status });
    }
    const list = [...stores.values()];
    const done = list.every((s) => s.status === "done");
    await tx
      .updateTable("session_erasure_receipts")
      .set({ stores: JSON.stringify(list), done, passes: row.passes + 1, updated_at: now, ...(done && !row.done ? { done_at: now } : {}) })
      .where("tenant_id", "=", t.tenant_id)
      .where("session_id", "=", t.session_id)
      .execute();
  });
}

/** The receipt of an ended session, for its owner or an owner/admin of its organisation. */
export async function readSessionErasure(db: Db, p: { orgId: string; userId: string; role: string }, sessionId: string): Promise<SessionErasure> {
  if (!isValidId(sessionId)) throw new AppError("session_not_found");
  const b = await db
    .selectFrom("session_bindings as b")
    .leftJoin("session_erasure_receipts as r", (j) => j.onRef("r.tenant_id", "=", "b.org_id").onRef("r.session_id", "=", "b.session_id"))
    .select(["b.org_id", "b.user_id", "b.tombstoned_at", "b.tombstone_reason", "r.stores", "r.passes", "r.done", "r.updated_at"])
    .where("b.session_id", "=", sessionId)
    .executeTakeFirst();
  const allowed = b && b.org_id === p.orgId && (b.user_id === p.userId || p.role === "owner" || p.role === "admin");
  if (!b || !allowed) throw new AppError("session_not_found");
  // A live session has no receipt: there is nothing to erase yet.
  if (b.tombstoned_at === null) throw new AppError("not_found");
  return {
    session_id: sessionId,
    cause: b.tombstone_reason === "revoked" ? "revoked" : "expired",
    ended_at: new Date(b.tombstoned_at).toISOString(),
    stores: b.stores ?? [],
    passes: b.passes ?? 0,
    done: b.done ?? false,
    updated_at: b.updated_at ? new Date(b.updated_at).toISOString() : null,
  };
}

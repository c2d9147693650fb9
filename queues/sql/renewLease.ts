/**
 * renewLease: extends a running job's lease, only while the stored token is
 * still ours. Zero rows = the lease was lost (reclaimed or finished
 * elsewhere): the worker must stop. Also reports a pending cancel request.
 */
import type { Db } from "../../db/schema";

export interface Renewal {
  ok: boolean;
  cancelRequested: boolean;
  expiresAt: Date | null;
}

export async function renewLease(db: Db, o: { id: string; token: string; now: Date; leaseMs: number }): Promise<Renewal> {
  const expires = new Date(o.now.getTime() + o.leaseMs);
  const row = await db
    .updateTable("jobs")
    .set({ lease_expires_at: expires, updated_at: o.now })
    .where("id", "=", o.id)
    .where("lease_token", "=", o.token)
    .where("status", "=", "running")
    .returning(["cancel_requested_at", "lease_expires_at"])
    .executeTakeFirst();
  if (!row) return { ok: false, cancelRequested: false, expiresAt: null };
  return { ok: true, cancelRequested: row.cancel_requested_at !== null, expiresAt: row.lease_expires_at };
}

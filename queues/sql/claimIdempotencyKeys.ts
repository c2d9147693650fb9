/**
 * claimIdempotencyKeys: inserts key rows for jobs about to be inserted in the same transaction (the
 * job_id foreign key is deferred); a row held by a live key is left as it is, an expired one is taken
 * over. Returns the rows won. The caller orders the rows (queues/idempotency.ts `claimKeys`: a multi-row
 * insert takes its rows' locks in the order it writes them).
 */
import type { Tx } from "../../db/schema";

export interface IdempotencyKeyRow {
  tenant_id: string;
  subject_id: string;
  session_id: string;
  key_hash: string;
  request_hash: string;
  job_id: string;
  created_at: Date;
  expires_at: Date;
}

export type IdempotencySlotRow = Pick<IdempotencyKeyRow, "tenant_id" | "subject_id" | "session_id" | "key_hash">;

export async function claimIdempotencyKeys(tx: Tx, now: Date, rows: readonly IdempotencyKeyRow[]): Promise<IdempotencySlotRow[]> {
  return tx
    .insertInto("job_idempotency_keys")
    .values([...rows])
    .onConflict((oc) =>
      oc
        .columns(["tenant_id", "subject_id", "session_id", "key_hash"])
        .doUpdateSet({
          request_hash: (eb) => eb.ref("excluded.request_hash"),
          job_id: (eb) => eb.ref("excluded.job_id"),
          created_at: (eb) => eb.ref("excluded.created_at"),
          expires_at: (eb) => eb.ref("excluded.expires_at"),
        })
        .where("job_idempotency_keys.expires_at", "<=", now),
    )
    .returning(["tenant_id", "subject_id", "session_id", "key_hash"])
    .execute();
}

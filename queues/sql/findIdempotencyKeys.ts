/** findIdempotencyKeys: the live key rows of these slots (identity and key hash), in one statement. */
import type { Db, Tx } from "../../db/schema";
import type { IdempotencyKeyRow, IdempotencySlotRow } from "./claimIdempotencyKeys";

export async function findIdempotencyKeys(db: Db | Tx, now: Date, wanted: readonly IdempotencySlotRow[]): Promise<Array<IdempotencySlotRow & Pick<IdempotencyKeyRow, "request_hash" | "job_id">>> {
  if (wanted.length === 0) return [];
  return db
    .selectFrom("job_idempotency_keys")
    .select(["tenant_id", "subject_id", "session_id", "key_hash", "request_hash", "job_id"])
    .where((eb) =>
      eb.or(
        wanted.map((w) =>
          eb.and([eb("tenant_id", "=", w.tenant_id), eb("subject_id", "=", w.subject_id), eb("session_id", "=", w.session_id), eb("key_hash", "=", w.key_hash)]),
        ),
      ),
    )
    .where("expires_at", ">", now)
    .execute();
}

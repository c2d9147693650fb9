/**
 * holdJob: inside the caller's transaction, locks the job row (FOR SHARE) while it is still
 * running under this lease token. True = the transaction holds the lease until it ends: no
 * reclaim, finish or cancel can change the row before it commits. False = the lease is gone.
 * The fence of a job's writes made before its finish (workers/fenced-stores.ts `fencedStep`).
 */
import type { Tx } from "../../db/schema";

export async function holdJob(tx: Tx, o: { id: string; token: string }): Promise<boolean> {
  const r = await tx.selectFrom("jobs").select("id").where("id", "=", o.id).where("lease_token", "=", o.token).where("status", "=", "running").forShare().executeTakeFirst();
  return r !== undefined;
}

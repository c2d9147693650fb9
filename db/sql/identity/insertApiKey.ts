/** insertApiKey: a new live key, stored as its lookup prefix and the SHA-256 of the whole key. */
import type { Db } from "../../schema";

export async function insertApiKey(db: Db, row: { id: string; orgId: string; userId: string; prefix: string; keyHash: string }): Promise<void> {
  await db
    .insertInto("api_keys")
    .values({ id: row.id, org_id: row.orgId, user_id: row.userId, prefix: row.prefix, key_hash: row.keyHash, revoked_at: null })
    .execute();
}

/**
 * Personal API keys: `csk_<8 hex>_<43 base64url>`. The key is shown once; the
 * store keeps its lookup prefix (`csk_<8 hex>`) and a SHA-256 of the whole
 * key (the secret has 256 bits of entropy, so a fast hash is the right tool).
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import { randomId, randomToken, sha256Hex } from "../crypto";
import type { Db } from "../../db/schema";

export const API_KEY_PATTERN = /^csk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 12);
}

export async function createApiKey(db: Db, input: { orgId: string; userId: string }): Promise<{ api_key: string; key_id: string; prefix: string }> {
  const member = await db
    .selectFrom("memberships")
    .select("role")
    .where("org_id", "=", input.orgId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!member) throw new AppError("not_a_member", { message: "The user is not a member of this organisation; add the membership first." });
  const prefix = `csk_${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${randomToken(32)}`;
  const id = randomId("key");
  await db
    .insertInto("api_keys")
    .values({ id, org_id: input.orgId, user_id: input.userId, prefix, key_hash: sha256Hex(key), revoked_at: null })
    .execute();
  return { api_key: key, key_id: id, prefix };
}

export async function revokeApiKey(db: Db, input: { prefix: string; at: Date }): Promise<{ prefix: string; revoked: true }> {
  const r = await db
    .updateTable("api_keys")
    .set({ revoked_at: input.at })
    .where("prefix", "=", input.prefix)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const exists = await db.selectFrom("api_keys").select("id").where("prefix", "=", input.prefix).executeTakeFirst();
    if (!exists) throw new AppError("not_found", { message: "No API key has this prefix." });
  }
  return { prefix: input.prefix, revoked: true };
}

/**
 * Personal API keys: `csk_<8 hex>_<43 base64url>`. The key is shown once; the
 * store keeps its lookup prefix (`csk_<8 hex>`) and a SHA-256 of the whole
 * key (the secret has 256 bits of entropy, so a fast hash is the right tool).
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import { randomId, randomToken, sha256Hex } from "../crypto";
import type { IdentityStore } from "../identity-store";

export const API_KEY_PATTERN = /^csk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 12);
}

export async function createApiKey(store: IdentityStore, input: { orgId: string; userId: string }): Promise<{ api_key: string; key_id: string; prefix: string }> {
  if ((await store.membershipRole(input.orgId, input.userId)) === undefined) {
    throw new AppError("not_a_member", { message: "The user is not a member of this organisation; add the membership first." });
  }
  const prefix = `csk_${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${randomToken(32)}`;
  const id = randomId("key");
  await store.insertApiKey({ id, orgId: input.orgId, userId: input.userId, prefix, keyHash: sha256Hex(key) });
  return { api_key: key, key_id: id, prefix };
}

export async function revokeApiKey(store: IdentityStore, input: { prefix: string; at: Date }): Promise<{ prefix: string; revoked: true }> {
  // Revoking twice is a no-op; an unknown prefix is refused.
  if (!(await store.revokeApiKey(input.prefix, input.at)) && !(await store.apiKeyExists(input.prefix))) {
    throw new AppError("not_found", { message: "No API key has this prefix." });
  }
  return { prefix: input.prefix, revoked: true };
}

/** Account fixtures: a fresh org, user, membership, API key and repository per call. */
import { randomBytes } from "node:crypto";
import { addMember, createOrg, createRepo, createUser, grantRepo } from "../../core/accounts/accounts";
import { createApiKey } from "../../core/accounts/api-keys";
import type { Db, RepoLevel, Role } from "../../db/schema";
import { identityStore } from "../../db/sql/identity/store";

export interface Account {
  orgId: string;
  userId: string;
  email: string;
  password: string;
  apiKey: string;
  keyId: string;
  keyPrefix: string;
  repoId: string;
  repoName: string;
}

export function uniq(prefix = "x"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

export async function seedAccount(
  db: Db,
  opts: { orgId?: string; role?: Role; repoLevel?: RepoLevel | null; platformAdmin?: boolean; repoId?: string } = {},
): Promise<Account> {
  const store = identityStore(db);
  const orgId = opts.orgId ?? (await createOrg(store, { name: uniq("org") })).org_id;
  const email = `${uniq("user")}@example.test`;
  const password = "correct horse battery";
  const { user_id: userId } = await createUser(store, { email, password, platformAdmin: opts.platformAdmin ?? false });
  await addMember(store, { orgId, userId, role: opts.role ?? "member" });
  const key = await createApiKey(store, { orgId, userId });
  let repoId = opts.repoId;
  let repoName: string;
  if (!repoId) {
    repoName = uniq("repo");
    repoId = (await createRepo(store, { orgId, name: repoName })).repo_id;
  } else {
    repoName = (await db.selectFrom("repositories").select("name").where("id", "=", repoId).executeTakeFirstOrThrow()).name;
  }
  if (opts.repoLevel !== null) await grantRepo(store, { repoId, userId, level: opts.repoLevel ?? "write" });
  return { orgId, userId, email, password, apiKey: key.api_key, keyId: key.key_id, keyPrefix: key.prefix, repoId, repoName };
}

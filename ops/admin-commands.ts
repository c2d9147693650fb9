/**
 * `codesynapse admin …` (RUN-5): bootstrap accounts. Each command returns one
 * plain object; main/cli.ts prints it as JSON (`--json`) or as `key: value` lines.
 */
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo, suspendMember, suspendUser, suspendOrg } from "../core/accounts/accounts";
import { createApiKey, revokeApiKey } from "../core/accounts/api-keys";
import { randomBytes } from "node:crypto";
import { AppError } from "../core/errors";
import type { AdminCommandName } from "./admin-usage";
import type { Clock } from "../core/clock";
import type { Db } from "../db/schema";
import type { IdentityStore } from "../core/identity-store";
import { listDeliveries, removeOrgWebhook, setOrgWebhook } from "../queues/webhooks";

type Flags = Record<string, string | boolean | undefined>;

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== "string" || v.length === 0) {
    throw new AppError("validation_failed", { message: `Missing --${name}.`, details: { flag: name } });
  }
  return v;
}

function oneOf<T extends string>(flags: Flags, name: string, values: readonly T[]): T {
  const v = need(flags, name);
  const r = z.enum(values as [T, ...T[]]).safeParse(v);
  if (!r.success) throw new AppError("validation_failed", { message: `--${name} must be one of ${values.join(", ")}.`, details: { flag: name } });
  return r.data;
}

/**
 * The README's first steps in one transaction: an organisation, its owner (a platform admin who can
 * sign in to /admin/*), a repository the owner may administer, and an API key. The key (and a
 * generated password, when none was given) is in the answer once and never again; all of it or
 * nothing is written.
 */
async function bootstrap(identity: IdentityStore, f: Flags) {
  const org = need(f, "org");
  const email = need(f, "email");
  const repo = need(f, "repo");
  const given = typeof f.password === "string" ? f.password : undefined;
  const password = given ?? randomBytes(18).toString("base64url");
  return identity.transaction(async (tx) => {
    const { org_id } = await createOrg(tx, { name: org });
    const { user_id } = await createUser(tx, { email, password, platformAdmin: true });
    await addMember(tx, { orgId: org_id, userId: user_id, role: "owner" });
    const { repo_id } = await createRepo(tx, { orgId: org_id, name: repo });
    await grantRepo(tx, { repoId: repo_id, userId: user_id, level: "admin" });
    const key = await createApiKey(tx, { orgId: org_id, userId: user_id });
    return { org_id, user_id, repo_id, repo_name: repo, email, ...(given === undefined ? { password } : {}), api_key: key.api_key, key_prefix: key.prefix };
  });
}

/** The stores the commands write: accounts through the identity store, webhooks on the job rows' database. */
export interface AdminStores {
  db: Db;
  identity: IdentityStore;
}

/** Every command of ADMIN_USAGE (the type makes the two lists the same). */
export const ADMIN_COMMANDS: Record<AdminCommandName, { run: (stores: AdminStores, clock: Clock, f: Flags) => Promise<object> }> = {
  bootstrap: { run: (s, _c, f) => bootstrap(s.identity, f) },
  "create-org": { run: (s, _c, f) => createOrg(s.identity, { name: need(f, "name") }) },
  "create-user": {
    run: (s, _c, f) =>
      createUser(s.identity, {
        email: need(f, "email"),
        password: typeof f.password === "string" ? f.password : undefined,
        platformAdmin: f["platform-admin"] === true,
      }),
  },
  "add-member": {
    run: (s, _c, f) => addMember(s.identity, { orgId: need(f, "org"), userId: need(f, "user"), role: oneOf(f, "role", ["owner", "admin", "member"] as const) }),
  },
  "create-api-key": {
    run: (s, _c, f) => createApiKey(s.identity, { orgId: need(f, "org"), userId: need(f, "user") }),
  },
  "create-repo": { run: (s, _c, f) => createRepo(s.identity, { orgId: need(f, "org"), name: need(f, "name") }) },
  grant: {
    run: (s, _c, f) => grantRepo(s.identity, { repoId: need(f, "repo"), userId: need(f, "user"), level: oneOf(f, "level", ["read", "write", "admin"] as const) }),
  },
  "suspend-user": { run: (s, c, f) => suspendUser(s.identity, { userId: need(f, "user"), at: c.now() }) },
  "suspend-member": {
    run: (s, c, f) => suspendMember(s.identity, { orgId: need(f, "org"), userId: need(f, "user"), at: c.now() }),
  },
  "suspend-org": { run: (s, c, f) => suspendOrg(s.identity, { orgId: need(f, "org"), at: c.now() }) },
  // Completion webhooks (docs/jobs.md): the secret is printed once, by set-webhook.
  "set-webhook": {
    run: ({ db }, c, f) => setOrgWebhook(db, c.now(), { orgId: need(f, "org"), url: need(f, "url"), secret: typeof f.secret === "string" ? f.secret : undefined }),
  },
  "remove-webhook": { run: ({ db }, _c, f) => removeOrgWebhook(db, need(f, "org")) },
  "webhook-deliveries": {
    run: async ({ db }, _c, f) => ({
      deliveries: await listDeliveries(db, need(f, "org"), {
        ...(f.status !== undefined ? { status: oneOf(f, "status", ["pending", "sending", "delivered", "failed"] as const) } : {}),
        ...(typeof f.limit === "string" ? { limit: Number.parseInt(f.limit, 10) || 50 } : {}),
      }),
    }),
  },
  "revoke-api-key": { run: (s, c, f) => revokeApiKey(s.identity, { prefix: need(f, "key-prefix"), at: c.now() }) },
};

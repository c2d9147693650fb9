/**
 * `codesynapse admin …` (RUN-5): bootstrap accounts. Each command returns one
 * plain object; main/cli.ts prints it as JSON (`--json`) or as `key: value` lines.
 */
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo, suspendMember, suspendUser, suspendOrg } from "../core/accounts/accounts";
import { createApiKey, revokeApiKey } from "../core/accounts/api-keys";
import { randomBytes } from "node:crypto";
import { AppError } from "../core/errors";
import { inTransaction } from "../core/transaction";
import type { AdminCommandName } from "./admin-usage";
import type { Clock } from "../core/clock";
import type { Db } from "../db/schema";
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
async function bootstrap(db: Db, f: Flags) {
  const org = need(f, "org");
  const email = need(f, "email");
  const repo = need(f, "repo");
  const given = typeof f.password === "string" ? f.password : undefined;
  const password = given ?? randomBytes(18).toString("base64url");
  return inTransaction(db, async (tx) => {
    const { org_id } = await createOrg(tx, { name: org });
    const { user_id } = await createUser(tx, { email, password, platformAdmin: true });
    await addMember(tx, { orgId: org_id, userId: user_id, role: "owner" });
    const { repo_id } = await createRepo(tx, { orgId: org_id, name: repo });
    await grantRepo(tx, { repoId: repo_id, userId: user_id, level: "admin" });
    const key = await createApiKey(tx, { orgId: org_id, userId: user_id });
    return { org_id, user_id, repo_id, repo_name: repo, email, ...(given === undefined ? { password } : {}), api_key: key.api_key, key_prefix: key.prefix };
  });
}

/** Every command of ADMIN_USAGE (the type makes the two lists the same). */
export const ADMIN_COMMANDS: Record<AdminCommandName, { run: (db: Db, clock: Clock, f: Flags) => Promise<object> }> = {
  bootstrap: { run: (db, _c, f) => bootstrap(db, f) },
  "create-org": { run: (db, _c, f) => createOrg(db, { name: need(f, "name") }) },
  "create-user": {
    run: (db, _c, f) =>
      createUser(db, {
        email: need(f, "email"),
        password: typeof f.password === "string" ? f.password : undefined,
        platformAdmin: f["platform-admin"] === true,
      }),
  },
  "add-member": {
    run: (db, _c, f) => addMember(db, { orgId: need(f, "org"), userId: need(f, "user"), role: oneOf(f, "role", ["owner", "admin", "member"] as const) }),
  },
  "create-api-key": {
    run: (db, _c, f) => createApiKey(db, { orgId: need(f, "org"), userId: need(f, "user") }),
  },
  "create-repo": { run: (db, _c, f) => createRepo(db, { orgId: need(f, "org"), name: need(f, "name") }) },
  grant: {
    run: (db, _c, f) => grantRepo(db, { repoId: need(f, "repo"), userId: need(f, "user"), level: oneOf(f, "level", ["read", "write", "admin"] as const) }),
  },
  "suspend-user": { run: (db, c, f) => suspendUser(db, { userId: need(f, "user"), at: c.now() }) },
  "suspend-member": {
    run: (db, c, f) => suspendMember(db, { orgId: need(f, "org"), userId: need(f, "user"), at: c.now() }),
  },
  "suspend-org": { run: (db, c, f) => suspendOrg(db, { orgId: need(f, "org"), at: c.now() }) },
  // Completion webhooks (docs/jobs.md): the secret is printed once, by set-webhook.
  "set-webhook": {
    run: (db, c, f) => setOrgWebhook(db, c.now(), { orgId: need(f, "org"), url: need(f, "url"), secret: typeof f.secret === "string" ? f.secret : undefined }),
  },
  "remove-webhook": { run: (db, _c, f) => removeOrgWebhook(db, need(f, "org")) },
  "webhook-deliveries": {
    run: async (db, _c, f) => ({
      deliveries: await listDeliveries(db, need(f, "org"), {
        ...(f.status !== undefined ? { status: oneOf(f, "status", ["pending", "sending", "delivered", "failed"] as const) } : {}),
        ...(typeof f.limit === "string" ? { limit: Number.parseInt(f.limit, 10) || 50 } : {}),
      }),
    }),
  },
  "revoke-api-key": { run: (db, c, f) => revokeApiKey(db, { prefix: need(f, "key-prefix"), at: c.now() }) },
};

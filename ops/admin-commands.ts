/**
 * `codesynapse admin …` (RUN-5): accounts and webhooks, as operations of the catalog (auth
 * `local_admin`, ops/operation.ts). Each one is a CLI command whose flags are its input fields
 * (`--key-prefix` is `key_prefix`; api/cli-operations.ts) and a REST route,
 * POST /api/v1/admin/commands/<command>, that the CLI's remote mode calls on a running server
 * (main/remote-admin.ts). Over HTTP each call is audited (audit_log: admin.command, with the
 * acting user or `via: local_admin_token`); its input never is (it can carry a password or a
 * webhook secret). The CLI on the database itself records nothing more, as before.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo, suspendMember, suspendOrg, suspendUser } from "../core/accounts/accounts";
import { createApiKey, revokeApiKey } from "../core/accounts/api-keys";
import { audit } from "../core/audit";
import { idString, nonBlankId, textString } from "../core/boundary";
import type { ErrorCode } from "../core/errors";
import { WEBHOOK_URL_MAX_CHARS } from "../core/limits";
import { listDeliveries, removeOrgWebhook, setOrgWebhook } from "../queues/webhooks";
import { defineOperation, type AdminCall, type Operation, type OpServices } from "./operation";

const orgId = idString().describe("The organisation's id (org_…).");
const userId = idString().describe("The user's id (usr_…).");
const repoId = idString().describe("The repository's id (repo_…).");
const email = idString(320).describe("The user's email (how they sign in).");
const password = textString(1024).min(8).describe("8 to 1024 characters (absent: the user signs in with an API key only).");
const repoName = nonBlankId(100).describe("The repository's name: 1-100 letters, digits, '.', '_' or '-'.");
const orgName = nonBlankId(200).describe("The organisation's name (1-200 characters).");
const ROLES = ["owner", "admin", "member"] as const;
const LEVELS = ["read", "write", "admin"] as const;
const DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed"] as const;

interface CommandSpec<S extends z.ZodRawShape, O> {
  command: string;
  title: string;
  description: string;
  input: S;
  output: z.ZodType<O>;
  errors?: readonly ErrorCode[];
  exec(services: OpServices, input: z.infer<z.ZodObject<S>>): Promise<O>;
}

/** One admin command: a `local_admin` operation, its CLI command and its route; audited when it came over HTTP. */
function command<S extends z.ZodRawShape, O>(spec: CommandSpec<S, O>) {
  return defineOperation<S, O, "local_admin">({
    name: `admin.${spec.command.replace(/-/g, "_")}`,
    title: spec.title,
    description: `${spec.description} \`codesynapse admin ${spec.command}\`.`,
    auth: "local_admin",
    input: spec.input,
    output: spec.output,
    ...(spec.errors ? { errors: spec.errors } : {}),
    http: [{ method: "post", path: `/api/v1/admin/commands/${spec.command}` }],
    cli: { command: spec.command },
    async run(call: AdminCall, input) {
      const out = await spec.exec(call.services, input);
      if (call.via !== "offline") {
        const { services, actor } = call;
        const details = actor ? { command: spec.command } : { command: spec.command, via: "local_admin_token" };
        await audit(services.identity, { at: services.clock.now(), orgId: null, actorUserId: actor?.userId ?? null, actorKeyId: actor?.apiKeyId ?? null, action: "admin.command", outcome: "ok", sessionTarget: null, details });
      }
      return out;
    },
  });
}

/**
 * The README's first steps in one transaction: an organisation, its owner (a platform admin who can
 * sign in to /admin/*), a repository the owner may administer, and an API key. The key (and a
 * generated password, when none was given) is in the answer once and never again; all of it or
 * nothing is written.
 */
const bootstrap = command({
  command: "bootstrap",
  title: "Bootstrap an organisation, its owner, a repository and a key",
  description:
    "Creates an organisation, its owner (a platform admin), a repository the owner administers and an API key, all or nothing. " +
    "The key, and a generated password when none was given, are in this answer once and never again.",
  input: { org: orgName, email, repo: repoName, password: password.optional() },
  output: z.object({
    org_id: z.string(),
    user_id: z.string(),
    repo_id: z.string(),
    repo_name: z.string(),
    email: z.string(),
    password: z.string().optional().describe("The generated password, when none was given."),
    api_key: z.string(),
    key_prefix: z.string(),
  }),
  errors: ["conflict"],
  exec: ({ identity }, f) => {
    const generated = f.password === undefined ? randomBytes(18).toString("base64url") : undefined;
    return identity.transaction(async (tx) => {
      const { org_id } = await createOrg(tx, { name: f.org });
      const { user_id } = await createUser(tx, { email: f.email, password: f.password ?? generated, platformAdmin: true });
      await addMember(tx, { orgId: org_id, userId: user_id, role: "owner" });
      const { repo_id } = await createRepo(tx, { orgId: org_id, name: f.repo });
      await grantRepo(tx, { repoId: repo_id, userId: user_id, level: "admin" });
      const key = await createApiKey(tx, { orgId: org_id, userId: user_id });
      return { org_id, user_id, repo_id, repo_name: f.repo, email: f.email, ...(generated ? { password: generated } : {}), api_key: key.api_key, key_prefix: key.prefix };
    });
  },
});

const createOrgOp = command({
  command: "create-org",
  title: "Create an organisation",
  description: "Creates an organisation.",
  input: { name: orgName },
  output: z.object({ org_id: z.string() }),
  exec: ({ identity }, f) => createOrg(identity, { name: f.name }),
});

const createUserOp = command({
  command: "create-user",
  title: "Create a user",
  description: "Creates a user, a platform admin with `platform_admin`.",
  input: { email, password: password.optional(), platform_admin: z.boolean().optional().describe("A platform admin: may sign in to the console and call the operators' API.") },
  output: z.object({ user_id: z.string() }),
  errors: ["conflict"],
  exec: ({ identity }, f) => createUser(identity, { email: f.email, password: f.password, platformAdmin: f.platform_admin === true }),
});

const addMemberOp = command({
  command: "add-member",
  title: "Add a member to an organisation",
  description: "Makes a user a member of an organisation with a role.",
  input: { org: orgId, user: userId, role: z.enum(ROLES).describe("owner, admin or member.") },
  output: z.object({ org_id: z.string(), user_id: z.string(), role: z.enum(ROLES) }),
  errors: ["not_found", "conflict"],
  exec: ({ identity }, f) => addMember(identity, { orgId: f.org, userId: f.user, role: f.role }),
});

const createApiKeyOp = command({
  command: "create-api-key",
  title: "Create an API key",
  description: "Creates an API key for a member of an organisation; the key is in this answer once and never again.",
  input: { org: orgId, user: userId },
  output: z.object({ api_key: z.string(), key_id: z.string(), prefix: z.string() }),
  errors: ["not_found", "not_a_member"],
  exec: ({ identity }, f) => createApiKey(identity, { orgId: f.org, userId: f.user }),
});

const createRepoOp = command({
  command: "create-repo",
  title: "Create a repository",
  description: "Creates a repository in an organisation.",
  input: { org: orgId, name: repoName },
  output: z.object({ repo_id: z.string() }),
  errors: ["not_found", "conflict"],
  exec: ({ identity }, f) => createRepo(identity, { orgId: f.org, name: f.name }),
});

const grantOp = command({
  command: "grant",
  title: "Grant a user a repository permission",
  description: "Gives a user read, write or admin permission on a repository.",
  input: { repo: repoId, user: userId, level: z.enum(LEVELS).describe("read, write or admin.") },
  output: z.object({ repo_id: z.string(), user_id: z.string(), level: z.enum(LEVELS) }),
  errors: ["not_found", "repo_not_found"],
  exec: ({ identity }, f) => grantRepo(identity, { repoId: f.repo, userId: f.user, level: f.level }),
});

const suspendUserOp = command({
  command: "suspend-user",
  title: "Suspend a user",
  description: "Suspends a user everywhere: their keys, sign-ins and sessions stop working.",
  input: { user: userId },
  output: z.object({ user_id: z.string(), suspended: z.literal(true) }),
  errors: ["not_found"],
  exec: ({ identity, clock }, f) => suspendUser(identity, { userId: f.user, at: clock.now() }),
});

const suspendMemberOp = command({
  command: "suspend-member",
  title: "Suspend a membership",
  description: "Suspends a user's membership of one organisation.",
  input: { org: orgId, user: userId },
  output: z.object({ org_id: z.string(), user_id: z.string(), suspended: z.literal(true) }),
  errors: ["not_found"],
  exec: ({ identity, clock }, f) => suspendMember(identity, { orgId: f.org, userId: f.user, at: clock.now() }),
});

const suspendOrgOp = command({
  command: "suspend-org",
  title: "Suspend an organisation",
  description: "Suspends an organisation: its members' calls are refused.",
  input: { org: orgId },
  output: z.object({ org_id: z.string(), suspended: z.literal(true) }),
  errors: ["not_found"],
  exec: ({ identity, clock }, f) => suspendOrg(identity, { orgId: f.org, at: clock.now() }),
});

// Completion webhooks (docs/jobs.md): the secret is in set-webhook's answer, once.
const setWebhookOp = command({
  command: "set-webhook",
  title: "Set an organisation's completion webhook",
  description: "Sets (or replaces) the organisation's completion webhook; without a secret one is generated. The secret is in this answer once.",
  input: {
    org: orgId,
    url: idString(WEBHOOK_URL_MAX_CHARS).describe("An absolute http(s) URL without credentials."),
    secret: textString(256).optional().describe("24 to 256 printable ASCII characters (absent: generated)."),
  },
  output: z.object({ org_id: z.string(), url: z.string(), secret: z.string() }),
  errors: ["not_found"],
  exec: ({ db, clock }, f) => setOrgWebhook(db, clock.now(), { orgId: f.org, url: f.url, secret: f.secret }),
});

const removeWebhookOp = command({
  command: "remove-webhook",
  title: "Remove an organisation's completion webhook",
  description: "Removes the organisation's webhook; deliveries not yet sent then fail as webhook_removed.",
  input: { org: orgId },
  output: z.object({ org_id: z.string(), removed: z.boolean() }),
  exec: ({ db }, f) => removeOrgWebhook(db, f.org),
});

const deliveryView = z.object({
  id: z.string(),
  job_id: z.string(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});

const webhookDeliveriesOp = command({
  command: "webhook-deliveries",
  title: "List an organisation's webhook deliveries",
  description: "The organisation's webhook deliveries, newest first (never the secret nor a response body).",
  input: {
    org: orgId,
    status: z.enum(DELIVERY_STATUSES).optional().describe("Only deliveries in this status."),
    limit: z.number().int().min(1).max(500).optional().describe("At most this many (1-500, default 50)."),
  },
  output: z.object({ deliveries: z.array(deliveryView) }),
  exec: async ({ db }, f) => ({ deliveries: await listDeliveries(db, f.org, { ...(f.status ? { status: f.status } : {}), ...(f.limit ? { limit: f.limit } : {}) }) }),
});

const revokeApiKeyOp = command({
  command: "revoke-api-key",
  title: "Revoke an API key",
  description: "Revokes an API key by its prefix (csk_ and 8 hex digits).",
  input: { key_prefix: idString(64).describe("The key's prefix, as create-api-key answered it.") },
  output: z.object({ prefix: z.string(), revoked: z.literal(true) }),
  errors: ["not_found"],
  exec: ({ identity, clock }, f) => revokeApiKey(identity, { prefix: f.key_prefix, at: clock.now() }),
});

/** Every admin command, in the order the usage lists them. */
export const ADMIN_COMMANDS: readonly Operation<any, any, any>[] = [
  bootstrap,
  createOrgOp,
  createUserOp,
  addMemberOp,
  createApiKeyOp,
  createRepoOp,
  grantOp,
  suspendUserOp,
  suspendMemberOp,
  suspendOrgOp,
  setWebhookOp,
  removeWebhookOp,
  webhookDeliveriesOp,
  revokeApiKeyOp,
];

/**
 * The admin commands' names and flags (ops/admin-commands.ts runs them). Apart so that the CLI can
 * print its usage and send a command to a running server without loading what runs them.
 */
export const ADMIN_USAGE = {
  bootstrap: "--org NAME --email E --repo NAME [--password P]",
  "create-org": "--name N",
  "create-user": "--email E [--password P] [--platform-admin]",
  "add-member": "--org ORG_ID --user USER_ID --role owner|admin|member",
  "create-api-key": "--org ORG_ID --user USER_ID",
  "create-repo": "--org ORG_ID --name NAME",
  grant: "--repo REPO_ID --user USER_ID --level read|write|admin",
  "suspend-user": "--user USER_ID",
  "suspend-member": "--org ORG_ID --user USER_ID",
  "suspend-org": "--org ORG_ID",
  "set-webhook": "--org ORG_ID --url URL [--secret S]",
  "remove-webhook": "--org ORG_ID",
  "webhook-deliveries": "--org ORG_ID [--status pending|sending|delivered|failed] [--limit N]",
  "revoke-api-key": "--key-prefix P",
} as const;

export type AdminCommandName = keyof typeof ADMIN_USAGE;

export function isAdminCommand(name: string | undefined): name is AdminCommandName {
  return name !== undefined && Object.hasOwn(ADMIN_USAGE, name);
}

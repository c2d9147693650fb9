/**
 * WRK-7: the environment for a subprocess a job starts (git, a parser, a
 * tool). Starts from a copy of the given base (default: this process's
 * environment), drops every ambient CODESYNAPSE_* variable — execution
 * identity, API keys, anything of ours — and copies in the validated identity
 * of the job. `process.env` itself is never changed.
 */
import { makeIdentity, type Identity } from "../core/execution/identity";

export const IDENTITY_ENV = {
  tenant_id: "CODESYNAPSE_TENANT_ID",
  subject_id: "CODESYNAPSE_SUBJECT_ID",
  session_id: "CODESYNAPSE_SESSION_ID",
  parent_session_id: "CODESYNAPSE_PARENT_SESSION_ID",
} as const;

export function subprocessEnv(
  identity: Identity,
  base: Readonly<Record<string, string | undefined>> = process.env,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const valid = makeIdentity(identity);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || k.toUpperCase().startsWith("CODESYNAPSE_")) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (k.toUpperCase().startsWith("CODESYNAPSE_")) throw new Error("extra environment may not set CODESYNAPSE_* variables");
    env[k] = v;
  }
  for (const [field, name] of Object.entries(IDENTITY_ENV)) env[name] = valid[field as keyof Identity];
  return env;
}

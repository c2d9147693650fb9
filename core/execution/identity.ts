/**
 * The execution identity (ID-1..ID-5): tenant, subject, primary session and
 * its explicit parent. Validated once, frozen, and never generated here: the
 * primary session ID always comes from the calling runtime (or, for a signed-in
 * browser, from the dashboard binding derived from its sign-in).
 */
import { identityFieldRefusal, identityRefusal } from "../errors-identity";
import { MAX_ID_CHARS } from "../limits";

/** Execution IDs: a subset of the boundary rule's IDs (core/boundary.ts), with its bound. */
export const ID_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${MAX_ID_CHARS}}$`);

export interface Identity {
  readonly tenant_id: string;
  readonly subject_id: string;
  readonly session_id: string;
  readonly parent_session_id: string;
}

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/** Validates every field (ID-1) and parent == session (ID-2); returns a frozen copy. */
export function makeIdentity(input: {
  tenant_id: unknown;
  subject_id: unknown;
  session_id: unknown;
  parent_session_id: unknown;
}): Identity {
  const fields = ["tenant_id", "subject_id", "session_id", "parent_session_id"] as const;
  for (const f of fields) {
    if (!isValidId(input[f])) throw identityFieldRefusal(f);
  }
  if (input.parent_session_id !== input.session_id) {
    throw identityRefusal("identity_parent_differs", { field: "parent_session_id" });
  }
  return Object.freeze({
    tenant_id: input.tenant_id as string,
    subject_id: input.subject_id as string,
    session_id: input.session_id as string,
    parent_session_id: input.parent_session_id as string,
  });
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.tenant_id === b.tenant_id && a.subject_id === b.subject_id && a.session_id === b.session_id && a.parent_session_id === b.parent_session_id;
}

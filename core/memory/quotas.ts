/**
 * The checks an adapter runs inside its transaction, in this order, shared so
 * that every adapter refuses the same write with the same error.
 */
import { AppError, limitError } from "../errors";
import {
  MAX_LIVE_FACTS_PER_SESSION,
  MAX_LIVE_FACTS_PER_TENANT,
  MAX_NAMESPACES_PER_SESSION,
  MAX_SCOPE_ROOTS_PER_TENANT,
} from "../limits";

/** What the adapter read about the existing root, under its lock. */
export interface RootState {
  subject_id: string;
  revision: number;
  expires_at: number;
  deleted: boolean;
}

/**
 * The read side (MEM-4), in the order every adapter's `load` applies it:
 * revocation, another subject, no root (`absent`), a cleared namespace, expiry
 * (`expired`: the adapter removes the content, then refuses with
 * `session_expired`). `live` means the snapshot may be returned.
 */
export function checkLoad(
  root: { deleted: boolean; expires_at: number } | null,
  opts: { revoked: boolean; otherSubject: boolean; now: number },
): "absent" | "expired" | "live" {
  if (opts.revoked) throw new AppError("session_revoked");
  if (opts.otherSubject) throw new AppError("session_forbidden");
  if (!root) return "absent";
  if (root.deleted) throw new AppError("namespace_closed");
  return root.expires_at <= opts.now ? "expired" : "live";
}

/** Refusals that depend on the stored root, before any limit is looked at. */
export function checkRoot(
  root: RootState | null,
  input: { subject_id: string; expectedRevision: number; expiresAt: number },
  opts: { revoked: boolean; otherSubject: boolean; now: number },
): "expired" | null {
  if (opts.revoked) throw new AppError("session_revoked");
  if (opts.otherSubject) throw new AppError("session_forbidden");
  if (!Number.isSafeInteger(input.expiresAt) || input.expiresAt <= 0) throw new AppError("validation_failed", { details: { field: "expires_at" } });
  if (root) {
    if (root.subject_id !== input.subject_id) throw new AppError("session_forbidden");
    if (root.deleted) throw new AppError("namespace_closed");
    if (root.expires_at <= opts.now) return "expired";
    if (root.expires_at !== input.expiresAt) {
      throw new AppError("conflict", { message: "The memory's expiry is fixed to its binding and cannot change." });
    }
    if (root.revision !== input.expectedRevision) throw new AppError("revision_conflict");
    return null;
  }
  if (input.expiresAt <= opts.now) return "expired";
  if (input.expectedRevision !== 0) throw new AppError("revision_conflict");
  return null;
}

export interface QuotaState {
  /** Whether this commit creates a new root. */
  creatingRoot: boolean;
  /** Roots already retained (any state) by this session / tenant. */
  sessionRoots: number;
  tenantRoots: number;
  /** Live facts (not cleared, not expired) in the session's / tenant's OTHER namespaces. */
  sessionLiveFactsElsewhere: number;
  tenantLiveFactsElsewhere: number;
  /** Facts in the namespace after this commit. */
  factsAfter: number;
}

export function enforceQuotas(s: QuotaState): void {
  if (s.creatingRoot) {
    if (s.sessionRoots + 1 > MAX_NAMESPACES_PER_SESSION) throw limitError("namespaces_per_session", MAX_NAMESPACES_PER_SESSION);
    if (s.tenantRoots + 1 > MAX_SCOPE_ROOTS_PER_TENANT) throw limitError("scope_roots_per_tenant", MAX_SCOPE_ROOTS_PER_TENANT);
  }
  if (s.sessionLiveFactsElsewhere + s.factsAfter > MAX_LIVE_FACTS_PER_SESSION) throw limitError("live_facts_per_session", MAX_LIVE_FACTS_PER_SESSION);
  if (s.tenantLiveFactsElsewhere + s.factsAfter > MAX_LIVE_FACTS_PER_TENANT) throw limitError("live_facts_per_tenant", MAX_LIVE_FACTS_PER_TENANT);
}

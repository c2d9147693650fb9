/**
 * The audit log. Records name their session target only where the caller owns
 * it; a refused claim records a SHA-256 of the target, never the rejected ID.
 */
import type { IdentityStore } from "./identity-store";

export type AuditAction =
  | "session.register"
  | "session.register_repeat"
  | "session.claim_refused"
  | "session.revoke"
  | "session.expire"
  | "session.dashboard_bind"
  | "session.dashboard_refused"
  // Operators' actions on jobs and accounts (the `admin.*` operations, ops/admin-jobs.ts and ops/admin-commands.ts): who did what to which jobs.
  | "job.cancel"
  | "job.retry"
  | "job.replay"
  | "admin.command";

export interface AuditEntry {
  at: Date;
  orgId: string | null;
  actorUserId: string | null;
  actorKeyId: string | null;
  action: AuditAction;
  outcome: "ok" | "refused";
  sessionTarget: string | null;
  details?: Record<string, unknown>;
}

export async function audit(store: IdentityStore, e: AuditEntry): Promise<void> {
  await store.insertAuditEntry(e);
}

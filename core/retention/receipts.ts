/**
 * The recorded erasure receipt of an ended session (revoked or expired): one row per session in
 * `session_erasure_receipts`, written by every cleanup pass (the revocation's own first pass and
 * each sweep that retries it). Per store (one per registered cleaner): how many items the passes
 * removed or redacted in total, and `done` or `pending`. The receipt is `done` once every store is.
 * Readable by whoever may revoke the session (its owner, or an owner/admin of its organisation);
 * anyone else gets `session_not_found`, as for revocation.
 */
import { AppError } from "../errors";
import { isValidId } from "../execution/identity";
import type { CleanupTarget } from "./cleaners";
import type { ErasureReceiptStore, NamespaceStoreReceipt, NamespaceTarget, StorePass } from "./receipt-store";

export interface SessionErasure {
  session_id: string;
  cause: "revoked" | "expired";
  ended_at: string;
  stores: StorePass[];
  passes: number;
  done: boolean;
  updated_at: string | null;
}

/** Adds one pass's counts to the session's receipt (creating it on the first pass). */
export async function recordErasurePass(receipts: ErasureReceiptStore, t: CleanupTarget, pass: readonly StorePass[], now: Date): Promise<void> {
  await receipts.updateSession(t, now, (row) => {
    const stores = new Map(row.stores.map((s) => [s.store, { ...s }]));
    for (const p of pass) {
      const was = stores.get(p.store);
      // A store once done stays done (its cleaner is idempotent and found nothing more).
      stores.set(p.store, { store: p.store, removed: (was?.removed ?? 0) + p.removed, status: was?.status === "done" ? "done" : p.status });
    }
    const list = [...stores.values()];
    return { stores: list, done: list.every((s) => s.status === "done"), passes: row.passes + 1 };
  });
}

/** The receipt of an ended session, for its owner or an owner/admin of its organisation. */
export async function readSessionErasure(receipts: ErasureReceiptStore, p: { orgId: string; userId: string; role: string }, sessionId: string): Promise<SessionErasure> {
  if (!isValidId(sessionId)) throw new AppError("session_not_found");
  const b = await receipts.readSession(sessionId);
  const allowed = b && b.org_id === p.orgId && (b.user_id === p.userId || p.role === "owner" || p.role === "admin");
  if (!b || !allowed) throw new AppError("session_not_found");
  // A live session has no receipt: there is nothing to erase yet.
  if (b.tombstoned_at === null) throw new AppError("not_found");
  return {
    session_id: sessionId,
    cause: b.tombstone_reason === "revoked" ? "revoked" : "expired",
    ended_at: new Date(b.tombstoned_at).toISOString(),
    stores: b.stores ?? [],
    passes: b.passes ?? 0,
    done: b.done ?? false,
    updated_at: b.updated_at ? new Date(b.updated_at).toISOString() : null,
  };
}

/** The stored receipt of a cleared namespace, as its owner reads it. */
export interface NamespaceErasure {
  scope: "namespace";
  session_id: string;
  repo_id: string;
  stores: NamespaceStoreReceipt[];
  clears: number;
  done: boolean;
  cleared_at: string;
  updated_at: string;
}

/**
 * Stores what clearing one namespace answered (creating the row on the first clear; a repeated clear adds
 * its counts, and a store once done stays done), in one transaction on that row.
 */
export async function recordNamespaceErasure(receipts: ErasureReceiptStore, t: NamespaceTarget, stores: readonly NamespaceStoreReceipt[], now: Date): Promise<void> {
  await receipts.updateNamespace(t, now, (row) => {
    const list = mergeStoreReceipts(row.stores, stores);
    return { stores: list, done: list.every((s) => s.status === "done"), clears: row.clears + 1 };
  });
}

/**
 * Adds one erasure's per-store counts to a stored receipt's: counts are summed; a store once done stays
 * done; a store that was pending takes the new status (a retry that finished it flips it to done).
 */
export function mergeStoreReceipts(was: readonly NamespaceStoreReceipt[], add: readonly NamespaceStoreReceipt[]): NamespaceStoreReceipt[] {
  const merged = new Map(was.map((s) => [s.store, { ...s }]));
  for (const p of add) {
    const w = merged.get(p.store);
    const sum = (k: "entities" | "facts" | "history") => (w?.[k] ?? 0) + p[k];
    const rows = w?.rows !== undefined || p.rows !== undefined ? { rows: (w?.rows ?? 0) + (p.rows ?? 0) } : {};
    merged.set(p.store, { store: p.store, entities: sum("entities"), facts: sum("facts"), history: sum("history"), ...rows, status: w?.status === "done" ? "done" : p.status });
  }
  return [...merged.values()];
}

/**
 * Stores what a forget-session on repository memory answered (creating the row on the first forget; a
 * repeated forget adds its counts and fact IDs). `factIds` (the forgotten facts) are kept only while the
 * `jobs:quoting-results` store is pending: the cleanup sweep needs them to finish the cascade once the other
 * sessions' running AI/fix jobs end (queues/memory-erasure.ts `retryPendingErasures`).
 */
export async function recordForgetErasure(receipts: ErasureReceiptStore, t: NamespaceTarget, stores: readonly NamespaceStoreReceipt[], factIds: readonly string[], now: Date): Promise<void> {
  await receipts.updateForget(t, now, (row) => {
    const list = mergeStoreReceipts(row.stores, stores);
    const quoting = list.find((s) => s.store === "jobs:quoting-results");
    const ids = quoting?.status === "pending" ? [...new Set([...row.fact_ids, ...factIds])] : [];
    return { stores: list, fact_ids: ids, done: list.every((s) => s.status === "done"), forgets: row.forgets + 1 };
  });
}

/**
 * The stored receipt of the namespace (session, repository) — for the session's own user (from any of their
 * sessions, the clearing one included) or an owner/admin of its organisation; anyone else, and a namespace never
 * cleared, get 404 (`session_not_found` / `not_found`), so a foreign session's existence is not told.
 */
export async function readNamespaceErasure(receipts: ErasureReceiptStore, p: { orgId: string; userId: string; role: string }, sessionId: string, repoId: string): Promise<NamespaceErasure> {
  if (!isValidId(sessionId)) throw new AppError("session_not_found");
  const b = await receipts.sessionOwner(sessionId);
  if (!b || b.org_id !== p.orgId || !(b.user_id === p.userId || p.role === "owner" || p.role === "admin")) throw new AppError("session_not_found");
  const r = await receipts.readNamespace({ tenant_id: b.org_id, session_id: sessionId, repo_id: repoId });
  if (!r) throw new AppError("not_found", { message: "This namespace has no erasure receipt: it was never cleared." });
  return {
    scope: "namespace",
    session_id: sessionId,
    repo_id: repoId,
    stores: r.stores,
    clears: r.clears,
    done: r.done,
    cleared_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/**
 * SessionMemoryStore (MEM-1): the one contract every session-memory adapter
 * implements — in memory and PostgreSQL here (db/graph/memory, db/graph/postgres),
 * Neo4j and HugeGraph next. test/contract/session-memory.contract.ts is the
 * suite each one must pass.
 *
 * Rules every adapter enforces inside its own transaction, even for a caller
 * that bypasses the engine — written once, in session-protocol.ts, which every
 * adapter extends (SessionProtocolStore) with its storage primitives:
 *  - revocation tombstone of (tenant, session) → `session_revoked`, for every
 *    namespace, for every operation but cleanup;
 *  - a cleared namespace → `namespace_closed`, for good;
 *  - expiry (the binding's deadline) reached → contents removed on access,
 *    `session_expired`; the root stays (it counts toward the root caps);
 *  - expiry is immutable once the scope exists (`conflict` otherwise);
 *  - a session belongs to one subject: a different subject → `session_forbidden`;
 *  - optimistic concurrency: `expectedRevision` must equal the stored revision
 *    (0 when creating), else `revision_conflict` — never a blind merge;
 *  - `checkSnapshot` (IDs, endpoints, predicates, per-namespace limits) and
 *    `enforceQuotas` (per-session and per-tenant limits), under a per-tenant
 *    lock so two racing writers cannot both pass a quota check.
 *  A failed commit writes nothing.
 */
import type { CommitInput, CommitResult, PurgeResult, ScopeOwner, ScopeSnapshot } from "./types";

export interface SessionMemoryStore {
  /** "memory", "postgres", "neo4j", "hugegraph". */
  readonly kind: string;
  /** A cheap round trip to the server behind the store (/readyz); absent when it lives in the relational store. */
  ping?(): Promise<void>;

  /**
   * The authoritative snapshot of one namespace, filtered by tenant, session
   * and namespace, after checking revocation, closure, subject and expiry.
   * `null` when the namespace was never written.
   */
  load(owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null>;

  /** Replaces the namespace's content if `expectedRevision` still holds. */
  commit(input: CommitInput): Promise<CommitResult>;

  /**
   * Clears the namespace and closes it for good (MEM-5). Creates a closed root
   * when the namespace was never written (it still counts toward the caps).
   */
  clear(owner: ScopeOwner, expiresAt: number, now: number): Promise<void>;

  /** Writes the (tenant, session) revocation tombstone. Idempotent. */
  revokeSession(tenantId: string, sessionId: string, now: number): Promise<void>;

  /**
   * Cleanup (RET-1): removes up to `batch` entities/facts of every namespace of
   * the session. Roots and tombstones stay. Call until `done`.
   */
  purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult>;

  /** Cleanup (RET-1): removes up to `batch` entities/facts of expired namespaces, any tenant. */
  purgeExpired(now: number, batch: number): Promise<PurgeResult>;
}

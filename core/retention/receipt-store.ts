/**
 * What the erasure receipts need of the relational store (db/sql/receipts/ implements it; main/ wires
 * it). The rules — how a pass's counts merge into a receipt, who may read one — stay in receipts.ts;
 * the store only reads and writes rows. A write that reads what a row holds and stores what follows
 * from it takes the row's lock for both, in one transaction, and asks `next` (the rule) in between.
 * `H` is the transaction handle the sweep's retry hands its own erasures (queues/memory-erasure.ts), so
 * they commit with the receipt they are counted in.
 */
import type { CleanupTarget } from "./cleaners";

/** One store of a stored namespace or forget erasure receipt (as `DELETE /session-memory` answered it). */
export interface NamespaceStoreReceipt {
  store: string;
  entities: number;
  facts: number;
  history: number;
  rows?: number;
  status: "done" | "pending";
}

/** One store of an ended session's receipt: what its cleaner removed, over every pass. */
export interface StorePass {
  store: string;
  removed: number;
  status: "done" | "pending";
}

/** The (session, repository) a namespace or forget receipt is kept for. */
export type NamespaceTarget = CleanupTarget & { repo_id: string };

export interface SessionReceiptState {
  stores: StorePass[];
  done: boolean;
  passes: number;
}

/** An ended session's binding (its owner, how it ended) and its receipt, if a pass wrote one. */
export interface SessionReceiptRead {
  org_id: string;
  user_id: string;
  tombstoned_at: Date | string | null;
  tombstone_reason: string | null;
  stores: StorePass[] | null;
  passes: number | null;
  done: boolean | null;
  updated_at: Date | string | null;
}

export interface NamespaceReceiptRow {
  stores: NamespaceStoreReceipt[];
  clears: number;
  done: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ForgetReceiptState {
  stores: NamespaceStoreReceipt[];
  fact_ids: string[];
  forgets: number;
}

/** A receipt the sweep retries: its key and what it holds. */
export interface PendingReceipt extends NamespaceTarget {
  stores: NamespaceStoreReceipt[];
}

export interface PendingForgetReceipt extends PendingReceipt {
  fact_ids: string[];
  forgotten_at: Date | string;
}

export interface ErasureReceiptStore<H = unknown> {
  /** Creates the session's receipt on its first pass; under its lock, stores `next` of what it holds (done_at when it becomes done). */
  updateSession(t: CleanupTarget, now: Date, next: (was: SessionReceiptState) => SessionReceiptState): Promise<void>;
  /** The session's binding joined with its receipt; undefined for an unknown session. */
  readSession(sessionId: string): Promise<SessionReceiptRead | undefined>;
  /** Creates the namespace's receipt on its first clear; under its lock, stores `next` of what it holds. */
  updateNamespace(t: NamespaceTarget, now: Date, next: (was: Pick<NamespaceReceiptRow, "stores" | "clears">) => Pick<NamespaceReceiptRow, "stores" | "clears" | "done">): Promise<void>;
  /** Creates the forget's receipt on its first forget; under its lock, stores `next` of what it holds (forgotten_at = now). */
  updateForget(t: NamespaceTarget, now: Date, next: (was: ForgetReceiptState) => ForgetReceiptState & { done: boolean }): Promise<void>;
  /** The owner of a session (its organisation and user); undefined for an unknown session. */
  sessionOwner(sessionId: string): Promise<{ org_id: string; user_id: string } | undefined>;
  /** The stored receipt of one namespace, if it was ever cleared. */
  readNamespace(t: NamespaceTarget): Promise<NamespaceReceiptRow | undefined>;
  /**
   * Up to `limit` namespace receipts not done whose `jobs:results` store is pending, least recently updated
   * first, each locked (skipping those another transaction holds) in one transaction: `redo` runs in it and
   * what it answers is stored. Answers `redo`'s answers.
   */
  retryNamespaces(limit: number, now: Date, redo: (h: H, r: PendingReceipt) => Promise<{ stores: NamespaceStoreReceipt[]; done: boolean }>): Promise<Array<{ done: boolean }>>;
  /** The same over forget receipts whose `jobs:results` or `jobs:quoting-results` store is pending. */
  retryForgets(limit: number, now: Date, redo: (h: H, r: PendingForgetReceipt) => Promise<{ stores: NamespaceStoreReceipt[]; fact_ids: string[]; done: boolean }>): Promise<Array<{ done: boolean }>>;
}

/**
 * What the cleanup sweep needs of the relational store (db/sql/sessions/ implements it; main/ wires it):
 * the session bindings' side of retention. `H` is the transaction a job's fenced persist hands over, so
 * `cleanup_done_at` commits with the sweep job's finish.
 */
import type { Clock } from "../clock";
import type { CleanupTarget } from "./cleaners";

export interface SweepStore<H = unknown> {
  /** Turns bindings whose expiry has passed by `clock` into tombstones (core/registry/registry.ts expireDueBindings); answers how many. */
  expireDue(clock: Clock): Promise<number>;
  /** Tombstoned bindings whose cleanup is not done, oldest tombstone first, at most `limit`. */
  pendingCleanups(limit: number): Promise<CleanupTarget[]>;
  /** Marks cleanup done, in `h`; only for tombstoned bindings (so it can never touch a live one). Answers how many. */
  markCleanupDone(h: H, targets: readonly CleanupTarget[], now: Date): Promise<number>;
}

/** The cleanup sweep's store (core/retention/sweep-store.ts) over the relational database: one verb per file beside it. */
import { expireDueBindings } from "../../../core/registry/registry";
import type { SweepStore } from "../../../core/retention/sweep-store";
import type { Db, Tx } from "../../schema";
import { identityStore } from "../identity/store";
import { markCleanupDone } from "./markCleanupDone";
import { pendingCleanups } from "./pendingCleanups";

export function sweepStore(db: Db): SweepStore<Tx> {
  return {
    expireDue: (clock) => expireDueBindings(identityStore(db), clock),
    pendingCleanups: (limit) => pendingCleanups(db, limit),
    markCleanupDone: (tx, targets, now) => markCleanupDone(tx, targets, now),
  };
}

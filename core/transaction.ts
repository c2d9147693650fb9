/**
 * Transactions, run again whole after a serialization failure or a deadlock
 * (core/retry.ts TRANSACTION_RETRY: the one retry loop, with the transaction's
 * policy). Functions that must be atomic take the `Tx` this hands them and use
 * nothing else: on PGlite the root handle inside a transaction callback would
 * wait forever for the one connection.
 */
import type { Kysely, Transaction } from "kysely";
import { retryTransient, TRANSACTION_RETRY } from "./retry";

export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  fn: (tx: Transaction<DB>) => Promise<T>,
  opts: { isolation?: "read committed" | "repeatable read" | "serializable" } = {},
): Promise<T> {
  // Already inside one (a store bound to a job's fenced persist): its statements join it.
  if (db.isTransaction) return fn(db as Transaction<DB>);
  return retryTransient(
    () => {
      let builder = db.transaction();
      if (opts.isolation) builder = builder.setIsolationLevel(opts.isolation);
      return builder.execute(fn);
    },
    { policy: TRANSACTION_RETRY },
  );
}

/**
 * Transactions with a retry table for transient PostgreSQL errors
 * (serialization failures and deadlocks). Functions that must be atomic take
 * the `Tx` this hands them and use nothing else: on PGlite the root handle
 * inside a transaction callback would wait forever for the one connection.
 */
import type { Kysely, Transaction } from "kysely";

const TRANSIENT = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && TRANSIENT.has(code);
}

export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  fn: (tx: Transaction<DB>) => Promise<T>,
  opts: { isolation?: "read committed" | "repeatable read" | "serializable" } = {},
): Promise<T> {
  // Already inside one (a store bound to a job's fenced persist): its statements join it.
  if (db.isTransaction) return fn(db as Transaction<DB>);
  for (let attempt = 1; ; attempt++) {
    try {
      let builder = db.transaction();
      if (opts.isolation) builder = builder.setIsolationLevel(opts.isolation);
      return await builder.execute(fn);
    } catch (err) {
      if (!isTransient(err) || attempt >= MAX_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10));
    }
  }
}

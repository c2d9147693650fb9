/**
 * The PostgreSQL-only dispatcher (no Redis): workers claim straight from the
 * rows. Enqueueing already notifies (`pg_notify` in the insert); this wakes the
 * pools again for re-dispatched rows. The listening side is workers/sources/postgres.ts.
 */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import { JOBS_CHANNEL } from "../sql/enqueueJob";
import type { DispatchItem, Dispatcher } from "./dispatcher";

export class PostgresDispatcher implements Dispatcher {
  readonly kind = "postgres" as const;
  constructor(private readonly db: Db) {}

  async dispatch(items: readonly DispatchItem[], _now?: Date, opts: { fresh?: boolean } = {}): Promise<void> {
    if (opts.fresh) return;
    for (const pool of new Set(items.map((i) => i.pool))) {
      await sql`select pg_notify(${JOBS_CHANNEL}, ${pool})`.execute(this.db);
    }
  }

  async close(): Promise<void> {}
}

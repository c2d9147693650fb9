/**
 * The PostgreSQL-only dispatcher (no Redis): workers claim straight from the
 * rows, and this wakes their pools with a NOTIFY on `codesynapse_jobs` (the
 * listening side is workers/sources/postgres.ts). Rows enqueued inside a
 * caller's transaction notify from their insert instead (enqueueJob).
 *
 * NOTIFYs are coalesced per pool: at most one is in flight, and calls made
 * meanwhile share ONE follow-up that is sent after the in-flight one ends —
 * so every call is still followed by a NOTIFY sent after it (after the
 * caller's commit), without a serialised notifying commit per job. `dispatch`
 * resolves once that NOTIFY is sent; a lost one is covered by the pools' poll
 * timer and the reconciler.
 */
import type { Db } from "../../db/schema";
import { notifyPool } from "../sql/notifyPool";
import type { DispatchItem, Dispatcher, RedispatchResult } from "./dispatcher";

interface PoolWake {
  current?: Promise<void>;
  next?: Promise<void>;
}

export class PostgresDispatcher implements Dispatcher {
  readonly kind = "postgres" as const;
  readonly #wakes = new Map<string, PoolWake>();
  constructor(private readonly db: Db) {}

  async dispatch(items: readonly DispatchItem[]): Promise<void> {
    await Promise.all([...new Set(items.map((i) => i.pool))].map((pool) => this.#wake(pool)));
  }

  /** A NOTIFY cannot be deduplicated away: every item is woken for. */
  async redispatch(items: readonly DispatchItem[]): Promise<RedispatchResult[]> {
    await this.dispatch(items);
    return items.map(() => "added");
  }

  #wake(pool: string): Promise<void> {
    let w = this.#wakes.get(pool);
    if (!w) this.#wakes.set(pool, (w = {}));
    const s = w;
    if (s.next) return s.next; // not sent yet: it goes out after this call
    const send = (): Promise<void> => {
      const p = notifyPool(this.db, pool).finally(() => {
        if (s.current === p) s.current = undefined;
      });
      s.current = p;
      return p;
    };
    if (!s.current) return send();
    const next: Promise<void> = s.current
      .catch(() => undefined)
      .then(() => {
        s.next = undefined;
        return send();
      });
    s.next = next;
    return next;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#wakes.values()].flatMap((w) => [w.current, w.next]).map((p) => p?.catch(() => undefined)));
  }
}

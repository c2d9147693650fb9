/**
 * Dispatch hands job ids to workers (JOB-2). The rows are the truth: a
 * dispatcher only says "row X of pool P may be claimable now or at run_at".
 * Losing a dispatch loses no job: the reconciler re-dispatches every queued row.
 */
export interface DispatchItem {
  id: string;
  pool: string;
  attempts: number;
  run_at: Date;
}

/**
 * What a re-dispatch did for one row: `added` a message where none was, found a
 * `live` one (waiting, delayed or being processed) and added nothing, or
 * `replaced` a dead one (failed or completed) with a fresh message.
 */
export type RedispatchResult = "added" | "live" | "replaced";

export interface Dispatcher {
  readonly kind: "postgres" | "bullmq";
  /** Call after the rows' insert or update has committed. */
  dispatch(items: readonly DispatchItem[], now: Date): Promise<void>;
  /**
   * The reconciler's re-dispatch of rows that the rows say are waiting (JOB-8): every
   * item ends with a message that will be delivered, whatever the broker kept of an
   * earlier one — a dispatcher may not answer "I already have that id" for a dead message.
   */
  redispatch(items: readonly DispatchItem[], now: Date): Promise<RedispatchResult[]>;
  /** A cheap round trip to the broker (/readyz); absent when the rows are the broker. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

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

export interface Dispatcher {
  readonly kind: "postgres" | "bullmq";
  /**
   * `fresh`: the rows were just inserted by enqueueJob, whose statement already
   * notified the PostgreSQL pools (so the PostgreSQL dispatcher has nothing to add).
   */
  dispatch(items: readonly DispatchItem[], now: Date, opts?: { fresh?: boolean }): Promise<void>;
  close(): Promise<void>;
}

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
  /** Call after the rows' insert or update has committed. */
  dispatch(items: readonly DispatchItem[], now: Date): Promise<void>;
  close(): Promise<void>;
}

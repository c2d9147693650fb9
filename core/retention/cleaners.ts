/**
 * Session cleaners (RET-1, WRK-6). A store that keeps per-session data (the
 * session-memory graph, the vector index) registers a cleaner; the cleanup
 * pool drives every cleaner for every revoked or expired session until all of
 * them report `done`, one bounded batch per call, and only then marks the
 * binding's `cleanup_done_at`. Cleaners delete; they never restore access
 * (the binding's tombstone is never touched).
 */
export interface CleanupTarget {
  tenant_id: string;
  session_id: string;
}

export interface SessionCleaner {
  /** A short stable name for logs and metrics (e.g. "session-memory", "vectors"). */
  readonly name: string;
  /**
   * Removes at most `limit` items of this session's data; `done` when nothing is left. Must be idempotent.
   * `removed` (items removed or redacted by this call) goes into the session's recorded erasure receipt.
   */
  purgeSession(target: CleanupTarget, opts: { limit: number }): Promise<{ done: boolean; removed?: number }>;
  /** Optional: removes at most `limit` items that expired by `now`, any session (expired memory, RET-1). */
  purgeExpired?(now: Date, opts: { limit: number }): Promise<{ done: boolean }>;
}

export class SessionCleaners {
  readonly #cleaners: SessionCleaner[] = [];

  register(c: SessionCleaner): this {
    if (this.#cleaners.some((x) => x.name === c.name)) throw new Error(`cleaner ${c.name} is already registered`);
    this.#cleaners.push(c);
    return this;
  }

  list(): readonly SessionCleaner[] {
    return this.#cleaners;
  }
}

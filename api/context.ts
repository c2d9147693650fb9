/**
 * What the HTTP layer is given. The composition root (main/runtime.ts) builds
 * it once; tests build it around their own database and clock.
 */
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import type { Logger } from "../core/log";
import type { Stores } from "../core/stores";
import type { IdentityStore } from "../core/identity-store";
import type { Db, Tx } from "../db/schema";
import type { MemoryServices } from "../core/memory/services";
import type { RateLimits } from "../core/rate-limit";
import type { SessionCleaners } from "../core/retention/cleaners";
import type { JobMetrics } from "../queues/metrics";
import type { JobQueue } from "../queues/submit";
import type { JobEvents } from "../ops/job-events";

export interface AppContext {
  /** Accounts, keys, sign-ins, the session registry and authorization's reads (db/sql/identity/ over `db`). */
  identity: IdentityStore;
  db: Db;
  /** The relational stores the rules use (core/stores.ts), over `db`: built by main/ (db/stores.ts). */
  stores: Stores<Tx>;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Session and repository memory (main/memory.ts builds it); routes answer 503 without it. */
  memory?: MemoryServices;
  /** Durable jobs (queues/): registry, dispatcher; submission routes call submitJob with it. */
  jobs?: JobQueue;
  /** Prometheus metrics of the job machinery (GET /metrics); built on demand when absent. */
  jobMetrics?: JobMetrics;
  /** Session cleaners the cleanup pool drives (stores register theirs, RET-1). */
  cleaners?: SessionCleaners;
  /** Rate limits (core/rate-limit.ts); createApp builds in-process ones when absent. */
  limits?: RateLimits;
  /** Job event streams and waits: one shared status watcher (ops/job-events.ts); made on first use. */
  jobEvents?: JobEvents;
  /**
   * The local admin token (main/local-server.ts): a server on the embedded data directory writes it to a file there,
   * and the CLI on the same machine sends it to run admin commands while the server holds the database.
   */
  localAdminToken?: string;
  /** Long-lived streams closed when the process shuts down, before the server (MCP transports and their SSE streams register here). */
  closers?: Array<() => Promise<void>>;
}

/**
 * What the HTTP layer is given. The composition root (api/runtime.ts) builds
 * it once; tests build it around their own database and clock.
 */
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";
import type { MemoryServices } from "../core/memory/services";

export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Session and repository memory (api/memory.ts builds it); routes answer 503 without it. */
  memory?: MemoryServices;
}

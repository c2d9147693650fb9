/**
 * What the HTTP layer is given. The composition root (api/runtime.ts) builds
 * it once; tests build it around their own database and clock.
 */
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";

export interface AppContext {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
}

/** An AppContext around a test database, with a settable clock and silent logs. */
import type { AppContext } from "../../api/context";
import { ManualClock, type Clock } from "../../core/clock";
import { loadConfig } from "../../core/config";
import { silentLogger, type Logger } from "../../core/log";
import type { Db } from "../../db/schema";

export function testContext(db: Db, opts: { clock?: Clock; logger?: Logger; env?: Record<string, string> } = {}): AppContext {
  return {
    db,
    clock: opts.clock ?? new ManualClock(Date.now()),
    config: loadConfig({ ...(opts.env ?? {}) }),
    logger: opts.logger ?? silentLogger(),
  };
}

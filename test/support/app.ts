/**
 * An AppContext around a test database, with a settable clock and silent logs (and, with testContextWithMemory, memory).
 * Tests that need no meaning-based recall embed by feature hashing (EMBEDDER=hash, no model load per test file);
 * pass `env: { EMBEDDER: "local" }` for the bundled model, the server's default.
 */
import type { AppContext } from "../../api/context";
import { ManualClock, type Clock } from "../../core/clock";
import { loadConfig } from "../../core/config";
import { silentLogger, type Logger } from "../../core/log";
import type { MemoryServices } from "../../core/memory/services";
import type { Db } from "../../db/schema";
import { relationalStores } from "../../db/stores";
import { identityStore } from "../../db/sql/identity/store";
import { buildMemoryServices } from "../../main/memory";

export function testContext(db: Db, opts: { clock?: Clock; logger?: Logger; env?: Record<string, string> } = {}): AppContext {
  return {
    db,
    identity: identityStore(db),
    stores: relationalStores(db),
    clock: opts.clock ?? new ManualClock(Date.now()),
    // An answer that breaks its output schema fails loudly here (api/output-check.ts); production strips and counts.
    config: loadConfig({ EMBEDDER: "hash", OUTPUT_SCHEMA_MISMATCH: "fail", ...(opts.env ?? {}) }),
    logger: opts.logger ?? silentLogger(),
  };
}

/** testContext with the memory services the configuration names (main/memory.ts), as `start` wires them. */
export function testContextWithMemory(db: Db, opts: Parameters<typeof testContext>[1] = {}): AppContext & { memory: MemoryServices } {
  const ctx = testContext(db, opts);
  return { ...ctx, memory: buildMemoryServices(ctx.config, db, ctx.clock, ctx.logger) };
}

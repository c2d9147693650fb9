/**
 * Giving the event loop its turn during long work on the main thread. Inputs: nothing but the
 * clock. `giveTurn()` resolves at once (a microtask) while less than TURN_MS has passed since the
 * last turn this module gave, otherwise after one setImmediate — so a loop of CPU work or a run of
 * statements on the embedded database (PGlite executes each statement synchronously, in this
 * thread) lets timers, sockets and requests run at least every TURN_MS of its own work, and pays
 * for one macrotask hop at most that often. Promise chains alone never give a turn: a transaction
 * of a thousand awaited statements is one block to the event loop unless something like this
 * sits between them.
 */
import { setImmediate as immediate } from "node:timers/promises";

/** Longest stretch of work between two turns (ms). */
export const TURN_MS = 10;

let last = performance.now();

export function giveTurn(): Promise<void> | undefined {
  if (performance.now() - last < TURN_MS) return undefined;
  return immediate().then(() => {
    last = performance.now();
  });
}

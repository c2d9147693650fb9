/**
 * In-process cancel fast path: a cancel accepted by this process's API reaches
 * a handler running in this process at once. Handlers in other processes learn
 * it from the row (`cancel_requested_at`) through the runner's cancel watch.
 */
import { EventEmitter } from "node:events";

const bus = new EventEmitter();
bus.setMaxListeners(0);

export function signalCancel(jobId: string): void {
  bus.emit("cancel", jobId);
}

export function onCancel(fn: (jobId: string) => void): () => void {
  bus.on("cancel", fn);
  return () => bus.off("cancel", fn);
}

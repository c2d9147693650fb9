/**
 * The hook the CLI calls before it exits (main/cli.ts), so spans still in
 * the batch are exported. Empty unless tracing started (./tracing.ts); this
 * module imports nothing, so the CLI loads no OpenTelemetry code for it.
 */
let flush: (() => Promise<void>) | undefined;

export function onTelemetryFlush(fn: () => Promise<void>): void {
  flush = fn;
}

/** Exports what is buffered and stops tracing, within `ms`; never throws. */
export async function flushTelemetry(ms = 5_000): Promise<void> {
  if (!flush) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([flush().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

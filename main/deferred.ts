/**
 * Adapters whose driver is imported on first use. neo4j-driver and the Milvus SDK (gRPC,
 * protobufjs) cost ~35 MB of a process that never talks to either — the embedded default
 * (docs/stores.md#embedded-memory) — so main/memory.ts builds their stores with a dynamic
 * import behind them, and buildMemoryServices stays synchronous for its callers.
 */

/** A value made by `load` on the first `get()`, once; a failed load is forgotten so the next call tries again. */
export interface Lazy<T> {
  get(): Promise<T>;
  /** The value's promise if a load has started, for close(): nothing is imported only to be closed. */
  started(): Promise<T> | undefined;
}

export function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let p: Promise<T> | undefined;
  return {
    get: () =>
      (p ??= load().catch((err: unknown) => {
        p = undefined;
        throw err;
      })),
    started: () => p,
  };
}

/**
 * Every member of T but `kind`, optional ones included (tsc refuses a list that misses one): true
 * for the methods the real adapter has, false for optional ones it does not (callers test those).
 */
export type MethodNames<T> = { [K in Exclude<keyof T, "kind">]-?: boolean };

/**
 * A T whose `kind` is known now and whose methods (async, as the store interfaces declare them;
 * a synchronous optional member is listed false) wait for `source`, then call the real one — same arguments, same result, same errors.
 */
export function deferred<T extends { readonly kind: string }>(kind: string, source: () => Promise<T>, methods: MethodNames<T>): T {
  const stub: Record<string, unknown> = { kind };
  for (const [name, has] of Object.entries(methods)) {
    if (!has) continue;
    stub[name] = async (...args: unknown[]) => {
      const real = (await source()) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return real[name]!(...args);
    };
  }
  return stub as unknown as T;
}

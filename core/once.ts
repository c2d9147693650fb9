/** Runs `fn` once and caches its promise; a failure is forgotten so the next call tries again (schema set-up of a store). */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => {
    p ??= fn().catch((err: unknown) => {
      p = undefined;
      throw err;
    });
    return p;
  };
}

/** The cleanup sweep (WRK-6): a system kind, started every minute by the persisted schedule `system:cleanup.sweep`. The handler is workers/pools/cleanup.ts. */
export const CLEANUP_KIND = "cleanup.sweep";
export const CLEANUP_EVERY_MS = 60_000;

/**
 * Every limit of the platform, named, with the spec requirement it serves.
 * Change a number here and nowhere else.
 */

/** HTTP-6: request bodies larger than this are refused with 413 before any work. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** REG-4: a binding lives exactly this long after registration; nothing extends it. */
export const BINDING_TTL_MS = 7 * 24 * 3600 * 1000;
/** REG-6: per organisation. */
export const MAX_ACTIVE_BINDINGS_PER_ORG = 1024;
export const MAX_RETAINED_BINDINGS_PER_ORG = 65536;
/** HTTP-3: the dashboard binding's window (the ID changes at each window boundary). */
export const DASHBOARD_WINDOW_MS = BINDING_TTL_MS;

/**
 * Every limit of the platform, named, with the spec requirement it serves.
 * Change a number here and nowhere else.
 */

/** HTTP-6: request bodies larger than this are refused with 413 before any work. */
export const BODY_LIMIT_BYTES = 256 * 1024;

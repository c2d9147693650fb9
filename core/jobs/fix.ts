/**
 * The fix kind (WRK-5): a patch proposal for a described problem in an
 * ingested snapshot. Never restarted (JOB-4): `restartable: false`,
 * `maxAttempts: 1`. The handler is workers/pools/fix.ts.
 */
import path from "node:path";
import { z } from "zod";
import { idString, nonBlankText } from "../boundary";
import { FIX_MAX_FILES, FIX_MAX_PROBLEM_CHARS } from "../limits";
import { defineJobKind } from "./kind";

export const FIX_KIND = "fix.propose";

const relPath = idString(1024)
  .refine((p) => !path.isAbsolute(p) && !p.split(/[\\/]/).includes(".."), { message: "a relative path inside the snapshot" })
  // The same rule for the API document: not absolute, no ".." segment.
  .meta({ not: { anyOf: [{ pattern: "^/" }, { pattern: "(^|[\\\\/])\\.\\.([\\\\/]|$)" }] } });

export const fixParams = z.strictObject({
  problem: nonBlankText(FIX_MAX_PROBLEM_CHARS).describe("What is wrong, in plain words."),
  path: idString(4096).optional().describe("The snapshot directory (default: the repository's latest local ingest)."),
  files: z.array(relPath).min(1).max(FIX_MAX_FILES).optional().describe("Files to read, relative to the snapshot (default: chosen from repository memory)."),
});

export type FixParams = z.infer<typeof fixParams>;

export const FIX_JOB = defineJobKind({ kind: FIX_KIND, pool: "fix", restartable: false, maxAttempts: 1, repoLevel: "write", params: fixParams });

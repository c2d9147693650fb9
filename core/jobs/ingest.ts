/**
 * The ingest kind (WRK-2): a repository snapshot — a local directory under
 * INGEST_ALLOWED_ROOTS, a shallow clone of an allowed git URL, or an archive
 * this session uploaded — into the repository code graph. The handler is
 * workers/pools/ingest.ts; `checkIngestSource` is the submission-time check
 * of the same source rules the handler applies again.
 */
import { z } from "zod";
import { idString } from "../boundary";
import type { Config } from "../config";
import type { Identity } from "../execution/identity";
import { checkGitUrl, resolveLocalSource } from "../ingest/source";
import type { UploadStore } from "../ingest/upload-store";
import { checkUpload } from "../ingest/uploads";
import { defineJobKind } from "./kind";

export const INGEST_KIND = "ingest.snapshot";

export const ingestParams = z
  .strictObject({
    path: idString(4096).optional().describe("A directory under the server's allowed roots."),
    git_url: idString(2048).optional().describe("A git URL on an allowed host (shallow clone)."),
    ref: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$/).optional().describe("With git_url: the branch or tag to clone."),
    upload_id: idString().optional().describe("An archive this session uploaded (POST /api/v1/repos/{repo}/uploads)."),
  })
  .refine((p) => [p.path, p.git_url, p.upload_id].filter((x) => x !== undefined).length === 1, { message: "exactly one of path, git_url or upload_id" })
  .refine((p) => p.ref === undefined || p.git_url !== undefined, { message: "ref needs git_url", path: ["ref"] });

export type IngestParams = z.infer<typeof ingestParams>;

export const INGEST_JOB = defineJobKind({
  kind: INGEST_KIND,
  pool: "ingest",
  restartable: true,
  maxAttempts: 3,
  repoLevel: "write",
  params: ingestParams,
  // Exactly one source; `ref` only with `git_url`.
  paramsRules: {
    oneOf: [
      { required: ["path"], not: { required: ["ref"] } },
      { required: ["git_url"] },
      { required: ["upload_id"], not: { required: ["ref"] } },
    ],
  },
  checkSubmit: (params, at) => checkIngestSource(at.config, params, at),
});

export type IngestSourceConfig = Pick<Config, "INGEST_ALLOWED_ROOTS" | "INGEST_GIT_ALLOWED">;

/** The submission-time check (the submit operation): the same source rules the handler applies again. */
export async function checkIngestSource(
  config: IngestSourceConfig,
  params: IngestParams,
  who: { uploads: UploadStore; identity: Identity; repoId: string; now: Date },
): Promise<void> {
  if (params.path !== undefined) await resolveLocalSource(params.path, config.INGEST_ALLOWED_ROOTS);
  else if (params.git_url !== undefined) checkGitUrl(params.git_url, config.INGEST_GIT_ALLOWED);
  else await checkUpload(who.uploads, who.identity, who.repoId, params.upload_id!, who.now);
}

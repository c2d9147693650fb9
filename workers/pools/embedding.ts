/**
 * The embedding pool's kind (WRK-4): embeds durable repository nodes that
 * lack a vector for the configured model, in bounded batches, under the job's
 * authorised identity — through `RepositoryMemory.index`, the same function
 * `POST /memory/index` calls (the embedder refuses without an identity). Up to
 * EMBED_JOB_MAX_BATCHES batches per job; if nodes remain, a follow-up job with
 * the same identity is enqueued in the fenced persist. A failure fails only
 * this job: the graph and lexical recall are untouched.
 */
import { z } from "zod";
import { requireIdentity } from "../../core/execution/context";
import { AppError } from "../../core/errors";
import { EMBED_JOB_MAX_BATCHES, MAX_EMBED_BATCH } from "../../core/limits";
import type { RepositoryMemory } from "../../core/memory/repository";
import type { JobQueue } from "../../queues/submit";
import { defineHandler, requireRepo, type JobHandler } from "../handler";
import { submitChildJob } from "./child-job";

export const EMBEDDING_KIND = "embedding.refresh";

export const embeddingParams = z.strictObject({
  batch: z.number().int().min(1).max(MAX_EMBED_BATCH).optional(),
  max_batches: z.number().int().min(1).max(EMBED_JOB_MAX_BATCHES).optional(),
});

export type EmbeddingParams = z.infer<typeof embeddingParams>;

export function embeddingHandler(deps: { repository: RepositoryMemory; queue: () => JobQueue }): JobHandler<EmbeddingParams> {
  return defineHandler({
    kind: EMBEDDING_KIND,
    pool: "embedding",
    restartable: true,
    maxAttempts: 3,
    repoLevel: "write",
    params: embeddingParams,
    async run({ job, params, repo: givenRepo, signal }) {
      const identity = requireIdentity();
      const repo = requireRepo(givenRepo);
      let indexed = 0;
      let remaining = true;
      let batches = 0;
      const max = params.max_batches ?? EMBED_JOB_MAX_BATCHES;
      while (remaining && batches < max) {
        if (signal.aborted) throw new AppError("canceled");
        const r = await deps.repository.index(identity, repo.repoId, params.batch ?? MAX_EMBED_BATCH);
        indexed += r.indexed;
        remaining = r.remaining;
        batches++;
        if (r.indexed === 0) break;
      }
      return {
        result: { indexed, batches, remaining },
        ...(remaining ? { persist: async (tx) => void (await submitChildJob(deps.queue(), tx, job, identity, { kind: EMBEDDING_KIND, params, repo: repo.repoId })) } : {}),
      };
    },
  });
}

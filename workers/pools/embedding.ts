/**
 * The embedding pool's kind (WRK-4): embeds durable repository nodes that
 * lack a vector for the configured model, in bounded batches, under the job's
 * authorised identity — through `RepositoryMemory.embedMissing`, which
 * `POST /memory/index` uses too (the embedder refuses without an identity). Up to
 * EMBED_JOB_MAX_BATCHES batches per job, computed in `run` and written in the
 * fenced persist (a worker that lost its lease writes no vector); if nodes
 * remain, a follow-up job with the same identity is enqueued there too. A
 * failure fails only this job: the graph and lexical recall are untouched.
 */
import { EMBEDDING_JOB, EMBEDDING_KIND, type EmbeddingParams } from "../../core/jobs/embedding";
import { AppError } from "../../core/errors";
import { EMBED_JOB_MAX_BATCHES, MAX_EMBED_BATCH } from "../../core/limits";
import type { RepositoryMemory } from "../../core/memory/repository";
import type { JobQueue } from "../../queues/submit";
import { defineRepoHandler, type JobHandler } from "../handler";
import { submitChildJob } from "./child-job";

/** What the embedding job may use while it runs: it embeds, and writes nothing (RepositoryMemory.embedMissing). */
export type RepositoryEmbeddings = Pick<RepositoryMemory, "embedMissing">;

export function embeddingHandler(deps: { repository: RepositoryEmbeddings; queue: () => JobQueue }): JobHandler<EmbeddingParams> {
  return defineRepoHandler({
    ...EMBEDDING_JOB,
    async run({ job, params, auth, signal }) {
      const { identity, repo } = auth;
      const batch = params.batch ?? MAX_EMBED_BATCH;
      const e = await deps.repository.embedMissing(identity, repo.repoId, batch, params.max_batches ?? EMBED_JOB_MAX_BATCHES);
      if (signal.aborted) throw new AppError("canceled");
      const result = { indexed: e.vectors.length, batches: Math.ceil(e.vectors.length / batch), remaining: e.remaining };
      return {
        result,
        persist: async (tx, stores) => {
          if (e.vectors.length > 0) {
            if (!stores.repository) throw new AppError("unavailable", { message: "Repository memory is not configured." });
            await stores.repository.setEmbeddings(repo.repoId, e.model, e.vectors);
          }
          if (e.remaining) await submitChildJob(deps.queue(), tx, auth, job, { kind: EMBEDDING_KIND, params, repo: repo.repoId });
        },
      };
    },
  });
}

/** The embedding refresh kind (WRK-4): durable repository nodes embedded in bounded batches. The handler is workers/pools/embedding.ts. */
import { z } from "zod";
import { EMBED_JOB_MAX_BATCHES, MAX_EMBED_BATCH } from "../limits";
import { defineJobKind } from "./kind";

export const EMBEDDING_KIND = "embedding.refresh";

export const embeddingParams = z.strictObject({
  batch: z.number().int().min(1).max(MAX_EMBED_BATCH).optional().describe(`Nodes per batch (1-${MAX_EMBED_BATCH}).`),
  max_batches: z.number().int().min(1).max(EMBED_JOB_MAX_BATCHES).optional().describe(`Batches in this job (1-${EMBED_JOB_MAX_BATCHES}); a follow-up job does the rest.`),
});

export type EmbeddingParams = z.infer<typeof embeddingParams>;

export const EMBEDDING_JOB = defineJobKind({ kind: EMBEDDING_KIND, pool: "embedding", restartable: true, maxAttempts: 3, repoLevel: "write", params: embeddingParams });

/**
 * The ai pool's kind (WRK-3): a question or a summary over a repository.
 * It refuses a context without the runner's recheck before reading any store, retrieves
 * from repository memory and the caller's session memory, calls the LLM
 * registry (which checks the context again before provider lookup or network
 * work), and stores the answer as the job's result.
 */
import { z } from "zod";
import { textString } from "../../core/boundary";
import { AI_MAX_CONTEXT_FACTS, AI_MAX_QUESTION_CHARS } from "../../core/limits";
import type { LlmRegistry } from "../../core/llm/registry";
import type { MemoryServices } from "../../core/memory/services";
import { defineRepoHandler, type JobHandler } from "../handler";
import { retrieveContext } from "./retrieve";

export const AI_KIND = "ai.task";

export const aiParams = z
  .strictObject({
    task: z.enum(["question", "summary"]),
    question: textString(AI_MAX_QUESTION_CHARS).trim().min(1).optional(),
  })
  .refine((p) => p.task !== "question" || p.question !== undefined, { message: "a question task needs question", path: ["question"] });

export type AiParams = z.infer<typeof aiParams>;

/** What a summary retrieves with when no focus is given. */
const SUMMARY_QUERY = "repository contains file class function method imports";

export function aiHandler(deps: { memory: MemoryServices; llm: LlmRegistry }): JobHandler<AiParams> {
  return defineRepoHandler({
    kind: AI_KIND,
    pool: "ai",
    restartable: true,
    maxAttempts: 3,
    repoLevel: "read",
    params: aiParams,
    async run({ params, auth }) {
      // A summary starts from the repository's own node (its name), whose `contains` edges list the files.
      const query = params.question ?? `${auth.repo.repoName} ${SUMMARY_QUERY}`;
      const facts = await retrieveContext(deps.memory, auth, query, AI_MAX_CONTEXT_FACTS);
      const answer = await deps.llm.complete({ task: params.task, prompt: query, facts });
      return {
        result: {
          task: params.task,
          answer: answer.text,
          provider: answer.provider,
          model: answer.model,
          sources: facts.map((f) => ({ scope: f.scope, fact_id: f.fact_id })),
        },
      };
    },
  });
}

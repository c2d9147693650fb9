/**
 * The ai pool's kind (WRK-3): a question or a summary over a repository.
 * It refuses a context without the runner's recheck before reading any store, retrieves
 * from repository memory and the caller's session memory, calls the LLM
 * registry (which checks the context again before provider lookup or network
 * work), and stores the answer as the job's result.
 */
import { AI_JOB, type AiParams } from "../../core/jobs/ai";
import { AI_MAX_CONTEXT_FACTS } from "../../core/limits";
import type { LlmRegistry } from "../../core/llm/registry";
import type { MemoryServices } from "../../core/memory/services";
import { defineRepoHandler, type JobHandler } from "../handler";
import { retrieveContext } from "./retrieve";

/** What a summary retrieves with when no focus is given. */
const SUMMARY_QUERY = "repository contains file class function method imports";

export function aiHandler(deps: { memory: MemoryServices; llm: LlmRegistry }): JobHandler<AiParams> {
  return defineRepoHandler({
    ...AI_JOB,
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

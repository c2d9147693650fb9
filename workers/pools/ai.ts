/**
 * The ai pool's kind (WRK-3): a question or a summary over a repository.
 * It refuses a context without the runner's recheck before reading any store, retrieves
 * from repository memory and the caller's session memory, calls the LLM
 * registry (which checks the context again before provider lookup or network
 * work), and stores the answer as the job's result.
 *
 * Recall first (docs/job-kinds.md "Answers and embeddings"): while the repository's embeddings are
 * still being built (some node lacks a vector and an embedding job of it is queued or running), the
 * task waits for them, up to `recallWaitMs` (AI_RECALL_WAIT_MS), checking every AI_RECALL_POLL_MS;
 * a cancel, a lost lease or shutdown ends the wait at once (the job's signal). If recall is still
 * partial then, it answers anyway and says so: `recall: "partial"` in the result and a closing
 * sentence in the answer.
 */
import { AI_JOB, type AiParams } from "../../core/jobs/ai";
import { AppError } from "../../core/errors";
import { AI_MAX_CONTEXT_FACTS, AI_RECALL_POLL_MS } from "../../core/limits";
import type { LlmRegistry } from "../../core/llm/registry";
import type { MemoryServices } from "../../core/memory/services";
import { waitForRecall } from "../../queues/recall";
import { defineRepoHandler, type JobHandler } from "../handler";
import { retrieveContext } from "./retrieve";

/** What a summary retrieves with when no focus is given. */
const SUMMARY_QUERY = "repository contains file class function method imports";

/** The answer's last sentence when it was made with partial recall. */
export const PARTIAL_RECALL_NOTE =
  "Note: this repository's embeddings were still being built, so some of its code was matched by keywords only and this answer may miss it; " +
  "ask again once the ingest job's recall is complete.";

export interface AiDeps {
  memory: MemoryServices;
  llm: LlmRegistry;
  /** The longest wait for embeddings still being built (ms); 0: answer at once. */
  recallWaitMs: number;
  /** Between two checks while waiting (ms); default AI_RECALL_POLL_MS. */
  recallPollMs?: number;
}

export function aiHandler(deps: AiDeps): JobHandler<AiParams> {
  return defineRepoHandler({
    ...AI_JOB,
    async run({ params, auth, db, signal }) {
      const recall = await waitForRecall(db, deps.memory.repository, auth.repo.repoId, {
        maxMs: deps.recallWaitMs,
        pollMs: deps.recallPollMs ?? AI_RECALL_POLL_MS,
        signal,
      });
      if (signal.aborted) throw new AppError("canceled");
      // A summary starts from the repository's own node (its name), whose `contains` edges list the files.
      const query = params.question ?? `${auth.repo.repoName} ${SUMMARY_QUERY}`;
      const facts = await retrieveContext(deps.memory, auth, query, AI_MAX_CONTEXT_FACTS);
      const answer = await deps.llm.complete({ task: params.task, prompt: query, facts });
      return {
        result: {
          task: params.task,
          answer: recall === "partial" ? `${answer.text}\n\n${PARTIAL_RECALL_NOTE}` : answer.text,
          recall,
          provider: answer.provider,
          model: answer.model,
          sources: facts.map((f) => ({ scope: f.scope, fact_id: f.fact_id })),
        },
      };
    },
  });
}

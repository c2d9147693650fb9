/** The AI task kind (WRK-3): a question or a summary over a repository. The handler is workers/pools/ai.ts. */
import { z } from "zod";
import { nonBlankText } from "../boundary";
import { AI_MAX_QUESTION_CHARS } from "../limits";
import { defineJobKind } from "./kind";

export const AI_KIND = "ai.task";

export const aiParams = z
  .strictObject({
    task: z.enum(["question", "summary"]).describe('"question" (with question) or "summary".'),
    question: nonBlankText(AI_MAX_QUESTION_CHARS).optional().describe("The question, for a question task."),
  })
  .refine((p) => p.task !== "question" || p.question !== undefined, { message: "a question task needs question", path: ["question"] });

export type AiParams = z.infer<typeof aiParams>;

export const AI_JOB = defineJobKind({
  kind: AI_KIND,
  pool: "ai",
  restartable: true,
  maxAttempts: 3,
  repoLevel: "read",
  params: aiParams,
  // A question task needs its question.
  paramsRules: { oneOf: [{ properties: { task: { const: "question" } }, required: ["question"] }, { properties: { task: { const: "summary" } } }] },
});

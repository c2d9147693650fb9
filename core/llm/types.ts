/** The LLM registry's request and provider shapes (WRK-3, WRK-5). */
import type { Identity } from "../execution/identity";

export type LlmTask = "question" | "summary" | "fix";

/** One retrieved fact, with the memory it came from. */
export interface ContextFact {
  scope: "repository" | "session";
  fact_id: string;
  subject: string;
  predicate: string;
  object: string;
}

export interface LlmRequest {
  task: LlmTask;
  /** The question, the summary focus, or the problem to fix. */
  prompt: string;
  facts: ContextFact[];
  /** Files of the snapshot (fix tasks): path relative to the snapshot root and text. */
  files?: Array<{ path: string; text: string }>;
}

export interface LlmAnswer {
  text: string;
  provider: string;
  model: string;
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  /** Called only by the registry, after it checked the execution context. */
  complete(identity: Identity, req: LlmRequest, signal: AbortSignal): Promise<LlmAnswer>;
}

export function factLine(f: ContextFact): string {
  return `${f.subject} ${f.predicate.replace(/_/g, " ")} ${f.object}`;
}

/**
 * The deterministic local provider (WRK-3, development and tests). No model:
 *  - question: an extractive answer — up to 8 retrieved facts, quoted as they
 *    are with their memory: those sharing the most (stemmed) words with the
 *    question first, then the others in the retriever's order (recall ranks
 *    by meaning, so "where are tokens verified" retrieves `authenticate`
 *    without sharing a word with it);
 *  - summary: counts of the code graph's node kinds among the facts, and the
 *    files and symbols they name;
 *  - fix: the local fix strategy (core/fix/local-strategy.ts).
 * Every text says it is the local extractive provider, not a language model.
 */
import type { Identity } from "../execution/identity";
import { proposeLocalPatch } from "../fix/local-strategy";
import { stem, tokenize } from "../recall/tokenize";
import { factLine, type ContextFact, type LlmAnswer, type LlmProvider, type LlmRequest } from "./types";

export const LOCAL_LABEL = "[local extractive provider — not a language model]";

const stems = (text: string) => new Set(tokenize(text).map(stem));

function overlap(q: Set<string>, f: ContextFact): number {
  let n = 0;
  for (const t of stems(factLine(f))) if (q.has(t)) n++;
  return n;
}

export class LocalLlmProvider implements LlmProvider {
  readonly name = "local";
  readonly model = "local-deterministic";

  async complete(_identity: Identity, req: LlmRequest): Promise<LlmAnswer> {
    return { text: this.text(req), provider: this.name, model: this.model };
  }

  private text(req: LlmRequest): string {
    if (req.task === "fix") return proposeLocalPatch(req.prompt, req.files ?? []).patch;
    if (req.task === "summary") {
      const names = new Set<string>();
      const kinds = new Map<string, number>();
      for (const f of req.facts) for (const side of [f.subject, f.object]) names.add(side);
      for (const n of names) {
        const kind = n.includes("#") ? "symbols" : /\.[A-Za-z0-9]+$/.test(n) ? "files" : "other entities";
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      const counts = [...kinds].map(([k, v]) => `${v} ${k}`).join(", ");
      const lines = req.facts.slice(0, 20).map((f) => `- ${factLine(f)} (${f.scope} memory)`);
      return `${LOCAL_LABEL}\nSummary from ${req.facts.length} retrieved facts (${counts || "nothing retrieved"}):\n${lines.join("\n")}`;
    }
    const q = stems(req.prompt);
    const ranked = req.facts
      .map((f, i) => ({ f, i, s: overlap(q, f) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, 8);
    if (ranked.length === 0) return `${LOCAL_LABEL}\nNo retrieved fact answers this question.`;
    return `${LOCAL_LABEL}\nFrom the retrieved facts:\n${ranked.map((x) => `- ${factLine(x.f)} (${x.f.scope} memory)`).join("\n")}`;
  }
}

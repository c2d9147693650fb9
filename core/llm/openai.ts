/**
 * An OpenAI-compatible chat-completions provider (WRK-3): `POST
 * {LLM_BASE_URL}/chat/completions` — OpenAI, Ollama (`/v1`), vLLM. The
 * retrieved facts (and, for fix tasks, the files) go in the user message;
 * temperature 0. Errors never carry the endpoint's body.
 */
import { AppError } from "../errors";
import type { ProviderGate } from "../provider-limits";
import type { Identity } from "../execution/identity";
import { factLine, type LlmAnswer, type LlmProvider, type LlmRequest } from "./types";

const SYSTEM: Record<LlmRequest["task"], string> = {
  question: "You answer questions about a code repository using only the facts given. Say when the facts do not answer the question.",
  summary: "You summarise a code repository from the facts given: its parts and how they relate.",
  fix: "You propose a fix as ONE unified diff (git apply format, paths prefixed a/ and b/) against the files given. Reply with the diff only.",
};

export class OpenAIChatProvider implements LlmProvider {
  readonly name = "openai";
  constructor(private readonly opts: { baseUrl: string; model: string; apiKey?: string | undefined; timeoutMs?: number; gate?: ProviderGate | undefined }) {}

  get model(): string {
    return this.opts.model;
  }

  async complete(_identity: Identity, req: LlmRequest, signal: AbortSignal): Promise<LlmAnswer> {
    const facts = req.facts.map((f) => `- [${f.scope}] ${factLine(f)}`).join("\n");
    const files = (req.files ?? []).map((f) => `--- ${f.path}\n${f.text}`).join("\n\n");
    const user = `${req.task === "fix" ? "Problem" : req.task === "summary" ? "Focus" : "Question"}: ${req.prompt}\n\nFacts:\n${facts || "(none)"}${files ? `\n\nFiles:\n${files}` : ""}`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 120_000);
    const call = () => fetch(`${this.opts.baseUrl.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.opts.model, temperature: 0, messages: [{ role: "system", content: SYSTEM[req.task] }, { role: "user", content: user }] }),
      signal: AbortSignal.any([signal, timeout]),
    }).catch((err: unknown) => {
      if (signal.aborted) throw new AppError("canceled");
      throw new AppError("unavailable", { message: "The language-model endpoint is not reachable.", cause: err });
    });
    // Our own limits on this endpoint, and its 429s, defer the job (core/provider-limits.ts).
    const res = this.opts.gate ? await this.opts.gate.run(signal, call) : await call();
    if (!res.ok) throw new AppError("unavailable", { message: `The language-model endpoint answered ${res.status}.` });
    const body = (await res.json().catch(() => null)) as { choices?: Array<{ message?: { content?: unknown } }> } | null;
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new AppError("unavailable", { message: "The language-model endpoint returned no answer." });
    return { text, provider: this.name, model: this.opts.model };
  }
}

/**
 * The LLM registry (WRK-3): the one way to call a model. It checks the
 * execution context — `requireIdentity()`: an identity is bound, the context
 * is not canceled, its deadline has not passed — BEFORE it looks a provider up
 * or anything touches the network. Providers: `local` (deterministic, always
 * there) and `openai` (any OpenAI-compatible chat-completions endpoint:
 * Ollama, vLLM, hosted) when LLM_BASE_URL is configured.
 */
import type { Config } from "../config";
import { AppError } from "../errors";
import { currentExecution, requireIdentity } from "../execution/context";
import { LocalLlmProvider } from "./local";
import type { ProviderGate } from "../provider-limits";
import { OpenAIChatProvider } from "./openai";
import type { LlmAnswer, LlmProvider, LlmRequest } from "./types";

export class LlmRegistry {
  readonly #providers = new Map<string, LlmProvider>();

  constructor(readonly defaultProvider: string) {}

  register(p: LlmProvider): this {
    this.#providers.set(p.name, p);
    return this;
  }

  names(): string[] {
    return [...this.#providers.keys()];
  }

  async complete(req: LlmRequest, opts: { provider?: string } = {}): Promise<LlmAnswer> {
    // First: no identity, a canceled context or a passed deadline stops here — no lookup, no network.
    const identity = requireIdentity();
    const signal = currentExecution()!.signal;
    const name = opts.provider ?? this.defaultProvider;
    const provider = this.#providers.get(name);
    if (!provider) throw new AppError("unavailable", { message: "The language-model provider the server's LLM_PROVIDER setting names is not available." });
    return provider.complete(identity, req, signal);
  }
}

export function buildLlmRegistry(config: Pick<Config, "LLM_PROVIDER" | "LLM_BASE_URL" | "LLM_MODEL" | "LLM_API_KEY">, gate?: ProviderGate): LlmRegistry {
  const registry = new LlmRegistry(config.LLM_PROVIDER).register(new LocalLlmProvider());
  if (config.LLM_BASE_URL) registry.register(new OpenAIChatProvider({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY, gate }));
  return registry;
}

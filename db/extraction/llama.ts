/**
 * An optional generative extractor (EXTRACTOR=llama): a GGUF model file on disk
 * (LLAMA_MODEL_PATH), run in this process by node-llama-cpp on the CPU. Never the
 * default; nothing is downloaded or built at run time and nothing goes over the network.
 *
 * node-llama-cpp is not a dependency of the project (its optional prebuilt binaries
 * include GPU builds of several hundred MB): an operator installs it, with
 * scripts/install-llama.sh, and points LLAMA_MODULE_DIR at the folder holding its
 * node_modules/ (default: resolved from the installation, as any package). Both the
 * module and the model are looked for on first use, not at start; a missing or unusable
 * one makes `extract` reject with `unavailable` naming what is missing (the environment
 * variable and the file's base name, not the full path), logged once, and every later
 * call rejects the same way without trying again (a restart picks up a fixed setup).
 *
 * States per process: one model, one context and one chat session per (module, model)
 * pair, loaded on first use and kept (a memo); generations run one at a time (a promise
 * chain), so concurrent offloads queue rather than share the cores. Each generation gets
 * at most `timeoutMs` and the caller's signal; the prompt is bounded to fit the context
 * (long turns are cut, turns that do not fit go to the next generation, at most
 * MAX_GENERATIONS per call). Output is constrained by a grammar compiled from
 * GENERATIVE_SCHEMA and then checked field by field (core/memory/generative.ts).
 *
 * Fallback: when a generation fails, times out or answers nothing valid, the
 * deterministic LocalExtractor's statements serve for those turns, so an offload is
 * never lost to the model; the caller's abort still rejects with `canceled`.
 */
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { assertAuthorisedIdentity } from "../../core/memory/embedder";
import { LocalExtractor, type Extractor, type Statement, type Turn } from "../../core/memory/extractor";
import { GENERATIVE_SCHEMA, GENERATIVE_SYSTEM_PROMPT, renderTurns, statementsFromModel } from "../../core/memory/generative";

/** Generations per `extract` call; turns past them are read by the local extractor. */
export const MAX_GENERATIONS = 6;

export interface LlamaExtractorOptions {
  /** The GGUF file (LLAMA_MODEL_PATH). */
  modelPath: string | undefined;
  /** A folder with node_modules/node-llama-cpp (LLAMA_MODULE_DIR); default: resolved from this installation. */
  moduleDir?: string | undefined;
  /** Tokens of context (system prompt, turns and answer). */
  contextSize?: number;
  /** Characters of conversation per generation, and per turn. */
  promptChars?: number;
  turnChars?: number;
  /** Turns per generation: a very small model loses the thread (and invents) over more. */
  turnsPerGeneration?: number;
  /** Tokens the model may write per generation. */
  maxTokens?: number;
  /** Per generation. */
  timeoutMs?: number;
  /**
   * CPU threads of a generation (default 1). More threads spin-wait for each other: on a
   * machine whose cores are busy with other work, two threads were measured 15× slower than one.
   */
  threads?: number;
  /** Replaces node-llama-cpp (tests: a model that answers what a test says). */
  runtime?: () => Promise<LlamaRuntime>;
  /** Called once per process and setup when the module or model cannot serve, and on a fallback. */
  onWarning?: (event: string, code: string) => void;
}

/** What this file uses of node-llama-cpp 3.x (its types are not a dependency of the project). */
interface LlamaModule {
  getLlama(opts: Record<string, unknown>): Promise<LlamaLike>;
  LlamaChatSession: new (opts: { contextSequence: unknown; systemPrompt: string }) => SessionLike;
}
interface LlamaLike {
  loadModel(opts: { modelPath: string; gpuLayers?: number }): Promise<{ createContext(opts: Record<string, unknown>): Promise<{ getSequence(): unknown }> }>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
}
export interface SessionLike {
  resetChatHistory(): void;
  prompt(text: string, opts: Record<string, unknown>): Promise<string>;
}

export interface LlamaRuntime {
  session: SessionLike;
  grammar: unknown;
}
type Runtime = LlamaRuntime;

const runtimes = new Map<string, Promise<Runtime>>();
let chain: Promise<unknown> = Promise.resolve();

/** Runs `fn` after every earlier generation of the process has finished. */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = chain.then(fn, fn);
  chain = run.catch(() => undefined);
  return run;
}

function unavailable(message: string, cause?: unknown): AppError {
  return new AppError("unavailable", { message, ...(cause !== undefined ? { cause } : {}) });
}

/** node-llama-cpp's entry file, from `moduleDir` or this installation. */
function resolveModule(moduleDir: string | undefined): string {
  const base = moduleDir ? path.join(path.resolve(moduleDir), "noop.js") : fileURLToPath(import.meta.url);
  try {
    return createRequire(base).resolve("node-llama-cpp");
  } catch (err) {
    throw unavailable(
      moduleDir
        ? "EXTRACTOR=llama: node-llama-cpp is not installed in LLAMA_MODULE_DIR (scripts/install-llama.sh installs it)."
        : "EXTRACTOR=llama: node-llama-cpp is not installed; set LLAMA_MODULE_DIR (scripts/install-llama.sh installs it).",
      err,
    );
  }
}

/** The model file is there and is a GGUF file (its first four bytes). */
export function checkModelFile(modelPath: string | undefined): string {
  if (!modelPath) throw unavailable("EXTRACTOR=llama needs LLAMA_MODEL_PATH (a GGUF model file).");
  const name = path.basename(modelPath);
  const full = path.resolve(modelPath);
  if (!existsSync(full) || !statSync(full).isFile()) throw unavailable(`EXTRACTOR=llama: the model file LLAMA_MODEL_PATH names (${name}) does not exist.`);
  const head = Buffer.alloc(4);
  let fd: number | undefined;
  try {
    fd = openSync(full, "r");
    readSync(fd, head, 0, 4, 0);
  } catch (err) {
    throw unavailable(`EXTRACTOR=llama: the model file LLAMA_MODEL_PATH names (${name}) cannot be read.`, err);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.toString("latin1") !== "GGUF") throw unavailable(`EXTRACTOR=llama: the model file LLAMA_MODEL_PATH names (${name}) is not a GGUF file.`);
  return full;
}

async function load(opts: LlamaExtractorOptions): Promise<Runtime> {
  const modelPath = checkModelFile(opts.modelPath);
  const entry = resolveModule(opts.moduleDir);
  let mod: LlamaModule;
  try {
    mod = (await import(pathToFileURL(entry).href)) as LlamaModule;
  } catch (err) {
    throw unavailable("EXTRACTOR=llama: node-llama-cpp cannot be loaded.", err);
  }
  try {
    // CPU only, the prebuilt binding only: never a download, never a build.
    const llama = await mod.getLlama({ gpu: false, build: "never", skipDownload: true, usePrebuiltBinaries: true, progressLogs: false, logLevel: "error" });
    const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    const context = await model.createContext({ contextSize: opts.contextSize ?? 2048, sequences: 1, threads: opts.threads ?? 1 });
    const session = new mod.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: GENERATIVE_SYSTEM_PROMPT });
    const grammar = await llama.createGrammarForJsonSchema(GENERATIVE_SCHEMA);
    return { session, grammar };
  } catch (err) {
    throw unavailable(`EXTRACTOR=llama: the model ${path.basename(modelPath)} cannot be loaded by node-llama-cpp.`, err);
  }
}

export class LlamaExtractor implements Extractor {
  readonly kind = "llama";
  private readonly local = new LocalExtractor();
  private warned = false;

  private readonly injected: Promise<Runtime> | undefined;

  constructor(private readonly opts: LlamaExtractorOptions) {
    this.injected = opts.runtime?.();
  }

  /** The loaded model, loading it on first use; rejects with `unavailable` when the module or model is missing. */
  runtime(): Promise<Runtime> {
    const key = `${path.resolve(this.opts.moduleDir ?? ".")}\u0000${path.resolve(this.opts.modelPath ?? "")}`;
    let p = this.injected ?? runtimes.get(key);
    if (!p) {
      p = load(this.opts);
      runtimes.set(key, p);
    }
    return p.catch((err: unknown) => {
      if (!this.warned) {
        this.warned = true;
        this.opts.onWarning?.("llama_unavailable", err instanceof AppError ? err.code : "internal");
      }
      throw err;
    });
  }

  async extract(identity: Identity, turns: Turn[], signal?: AbortSignal): Promise<Statement[]> {
    assertAuthorisedIdentity(identity);
    if (signal?.aborted) throw new AppError("canceled");
    if (turns.length === 0) return [];
    const rt = await this.runtime();
    const out: Statement[] = [];
    let from = 0;
    for (let g = 0; g < MAX_GENERATIONS && from < turns.length; g++) {
      const r = renderTurns(turns, { from, perTurn: this.opts.turnChars ?? 500, budget: this.opts.promptChars ?? 1500, maxTurns: this.opts.turnsPerGeneration ?? 4 });
      const part = turns.slice(from, from + r.count);
      const found = await this.generate(rt, r.text, part, signal);
      const offset = from;
      const statements = found ?? (await this.local.extract(identity, part, signal));
      if (!found) this.opts.onWarning?.("llama_fallback", "invalid_output");
      out.push(...statements.map((s) => ({ ...s, turns: s.turns.map((i) => i + offset) })));
      from += r.count;
    }
    if (from < turns.length) {
      const offset = from;
      const rest = await this.local.extract(identity, turns.slice(from), signal);
      out.push(...rest.map((s) => ({ ...s, turns: s.turns.map((i) => i + offset) })));
    }
    return out;
  }

  /** One generation's valid statements (turn indexes relative to `part`), or null when it failed or found none valid. */
  private async generate(rt: Runtime, conversation: string, part: Turn[], signal: AbortSignal | undefined): Promise<Statement[] | null> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let answer: string;
    try {
      answer = await serial(async () => {
        stop.throwIfAborted();
        rt.session.resetChatHistory();
        return rt.session.prompt(`Conversation:\n${conversation}\nAnswer:`, {
          grammar: rt.grammar,
          temperature: 0,
          // A very small model otherwise writes the same statement until the list is full.
          repeatPenalty: { lastTokens: 96, penalty: 1.15 },
          maxTokens: this.opts.maxTokens ?? 768,
          signal: stop,
        });
      });
    } catch {
      if (signal?.aborted) throw new AppError("canceled");
      return null;
    }
    // A valid answer may still hold no statement (a turn of chatter); only a broken one falls back.
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer);
    } catch {
      return null;
    }
    const statements = statementsFromModel(parsed, part);
    const listed = (parsed as { statements?: unknown } | null)?.statements;
    return statements.length > 0 || (Array.isArray(listed) && listed.length === 0) ? statements : null;
  }
}

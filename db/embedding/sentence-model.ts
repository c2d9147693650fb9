/**
 * A local sentence-embedding model run in process by ONNX Runtime (VEC-3): the
 * embedded default's dense side, so recall matches meaning ("where are tokens
 * verified" ~ "verifyBearerToken"), not only shared words.
 *
 * Inputs: `model.onnx` and `tokenizer.json` from a model folder (models/ at
 * the repository root, committed with their licence and SHA-256; or
 * EMBEDDING_MODEL_DIR). Both files are checked against the pinned SHA-256
 * before anything is loaded; a missing or altered file is refused
 * (`verify()` rejects with code `unavailable`), and the caller
 * (core/memory/embedder.ts `FallbackEmbedder`) serves feature hashing instead.
 *
 * States: unloaded → (first embed) verifying → loaded, or failed for good. The
 * ONNX runtime and the weights load on first use only: an idle server, or a
 * process that never embeds, pays nothing. Inference runs in a child process
 * (onnx-worker.ts: onnxruntime-node would otherwise hold the event loop for a
 * whole batch), one batch at a time per process (a promise chain), on one
 * intra-op thread, so concurrent recalls queue rather than oversubscribe the
 * cores. Tokenizing stays in the caller's thread (microseconds a text).
 *
 * Text: identifiers are split into words first (`TokenStore.verifyBearer` →
 * "token store verify bearer"): the tokenizer's vocabulary is English words,
 * and a glued identifier would otherwise become meaningless word pieces.
 * Each batch is padded to its longest text (≤ 128 tokens, the model's
 * training length), not to a fixed 128: short texts cost little. Output:
 * the model's own pooling (the attention-masked mean of the last hidden
 * state, or its [CLS] token: `SentenceModelSpec.pooling`), L2-normalised.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AppError } from "../../core/errors";
import type { Identity } from "../../core/execution/identity";
import { assertAuthorisedIdentity, type Embedder } from "../../core/memory/embedder";
import type { FusionByKind } from "../../core/recall/recall";

/** Runs `fn` once and keeps its promise, a failure included (a model that failed to verify or load stays failed). */
function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

export interface SentenceModelSpec {
  /** The vector space's name: model, weights and dimension (vectors of different spaces never mix). */
  id: string;
  /** The folder under models/. */
  folder: string;
  dim: number;
  maxTokens: number;
  /** The model's own pooling: the masked mean of the last hidden state, or its [CLS] token. */
  pooling: "mean" | "cls";
  /** Put before every text, where the model was trained with one (e5's "query: "). */
  prefix?: string;
  /** How recall fuses this model's dense list with BM25, per kind of memory (measured, docs/memory.md). */
  fusion: FusionByKind;
  sha256: { model: string; tokenizer: string };
}

/** all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), int8-quantised ONNX; see models/all-minilm-l6-v2-int8/NOTICE. */
export const MINILM_L6_INT8: SentenceModelSpec = {
  id: "minilm-l6-v2-int8-384",
  folder: "all-minilm-l6-v2-int8",
  dim: 384,
  maxTokens: 128,
  pooling: "mean",
  fusion: { code: { k: 20, denseWeight: 3, perNode: 1 }, conversation: { k: 60, denseWeight: 4, perNode: 0 } },
  sha256: {
    model: "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    tokenizer: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
  },
};

/** Texts embedded per ONNX run (the embedding pool's batches are split into these). */
export const MODEL_BATCH = 32;
/**
 * Padded tokens (texts × longest text) per ONNX run. Runs go one at a time, so a recall's query
 * waits behind at most one run of background embedding: at about 0.3 ms a token on one core,
 * 256 tokens keep that near 80 ms. Names of code (a few tokens each) still go 32 to a run;
 * sentences (offloaded statements) a few at a time.
 */
export const MODEL_BATCH_TOKENS = 256;

/**
 * Query vectors kept per process: a recall's query, asked again by the same principal within
 * QUERY_CACHE_MS (an AI task recalls the repository's memory and then the session's with the
 * same question), is not embedded twice. Keyed by tenant and subject as well as the text, so one
 * caller's timing never tells another what was asked; the model is fixed per embedder instance.
 */
export const QUERY_CACHE_SIZE = 256;
export const QUERY_CACHE_MS = 5 * 60_000;

/** The models/ folder: EMBEDDING_MODEL_DIR, else the first `models/<folder>` above this file (sources or dist/). */
export function modelDir(spec: SentenceModelSpec, override?: string): string {
  if (override) return override;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, "models", spec.folder);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve("models", spec.folder);
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash("sha256");
    createReadStream(file)
      .on("data", (c) => h.update(c))
      .on("error", reject)
      .on("end", () => resolve(h.digest("hex")));
  });
}

/** Splits code identifiers into lower-case words the tokenizer knows. */
export function humanise(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_./\\:#-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

interface Loaded {
  /** Token-id rows → their vectors, computed in the inference process. */
  infer(batch: number[][]): Promise<number[][]>;
  encode(text: string): number[];
}

/** The inference process's file: the source beside this one, or the build's own entry (dist/onnx-worker.js). */
function workerFile(): URL {
  const here = import.meta.url;
  const candidates = here.endsWith(".ts") ? [new URL("./onnx-worker.ts", here)] : [new URL("./onnx-worker.js", here), new URL("../onnx-worker.js", here)];
  const found = candidates.find((u) => existsSync(fileURLToPath(u)));
  if (!found) throw new AppError("unavailable", { message: "The embedding model's inference process is missing from this build.", details: { reason: "load_failed" } });
  return found;
}

/**
 * Forks the inference process and waits for its session. A child that dies later fails the
 * batches in flight; the next batch forks a new one. The child keeps this process alive only
 * while a batch is in flight, and exits when this process does.
 */
async function startInference(setup: { model: string; threads: number; dim: number; pooling: "mean" | "cls" }): Promise<(batch: number[][]) => Promise<number[][]>> {
  const { fork } = await import("node:child_process");
  const file = fileURLToPath(workerFile());
  let pending = new Map<number, { resolve: (v: number[][]) => void; reject: (e: Error) => void }>();
  let next = 0;
  type Child = import("node:child_process").ChildProcess;
  const hold = (c: Child, on: boolean) => {
    if (on) c.ref();
    else c.unref();
    const channel = c.channel as { ref?(): void; unref?(): void } | undefined;
    if (on) channel?.ref?.();
    else channel?.unref?.();
  };
  const spawn = () =>
    new Promise<Child>((resolve, reject) => {
      const c = fork(file, [], { serialization: "advanced", stdio: ["ignore", "ignore", "inherit", "ipc"] });
      let ready = false;
      c.on("message", (m: { ready?: true; id?: number; vectors?: number[][]; error?: string }) => {
        // Loading keeps this process alive; a loaded, idle child does not.
        if (m.ready) return ((ready = true), hold(c, false), resolve(c));
        if (m.id === undefined) return reject(new AppError("unavailable", { message: "The embedding model did not load.", details: { reason: "load_failed" } }));
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (pending.size === 0) hold(c, false);
        if (m.error !== undefined) p?.reject(new AppError("internal", { message: "The embedding model failed on a batch." }));
        else p?.resolve(m.vectors!);
      });
      const gone = () => {
        child = undefined;
        const lost = pending;
        pending = new Map();
        for (const p of lost.values()) p.reject(new AppError("unavailable", { message: "The embedding model's inference process stopped." }));
        if (!ready) reject(new AppError("unavailable", { message: "The embedding model did not load.", details: { reason: "load_failed" } }));
      };
      c.on("error", gone);
      c.on("exit", gone);
      c.send(setup);
    });
  let child: Promise<Child> | undefined = spawn();
  await child;
  return async (batch) => {
    const c = await (child ??= spawn());
    const id = next++;
    return new Promise<number[][]>((resolve, reject) => {
      // A batch in flight keeps this process alive.
      if (pending.size === 0) hold(c, true);
      pending.set(id, { resolve, reject });
      c.send({ id, batch });
    });
  };
}

export class SentenceModelEmbedder implements Embedder {
  readonly model: string;
  readonly dim: number;
  readonly dir: string;
  /** How recall fuses this model's dense list with BM25: the model's own, measured (docs/memory.md). */
  readonly fusion: FusionByKind;
  /** The last inference, so batches run one at a time in this process. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Recent single-text (query) embeddings, least recently used first: key → vector and when it was computed. */
  private readonly recent = new Map<string, { at: number; vector: number[] }>();

  constructor(
    readonly spec: SentenceModelSpec = MINILM_L6_INT8,
    opts: { dir?: string | undefined; threads?: number } = {},
  ) {
    this.model = spec.id;
    this.dim = spec.dim;
    this.fusion = spec.fusion;
    this.dir = modelDir(spec, opts.dir);
    this.threads = opts.threads ?? 1;
  }

  private readonly threads: number;

  /** Both files present and equal to their pinned SHA-256 (computed once per process). */
  readonly verify = memo(async (): Promise<void> => {
    const files: Array<[string, string]> = [
      ["model.onnx", this.spec.sha256.model],
      ["tokenizer.json", this.spec.sha256.tokenizer],
    ];
    for (const [name, want] of files) {
      const file = path.join(this.dir, name);
      if (!existsSync(file)) throw new AppError("unavailable", { message: `The embedding model file ${name} is missing.`, details: { reason: "model_missing" } });
      if ((await sha256Of(file)) !== want) throw new AppError("unavailable", { message: `The embedding model file ${name} fails its checksum.`, details: { reason: "checksum_mismatch" } });
    }
  });

  /** Verifies, then loads the weights (in the inference process) and the tokenizer: on first use only. */
  readonly load = memo(async (): Promise<Loaded> => {
    await this.verify();
    const [infer, { Tokenizer }, tokenizerJson] = await Promise.all([
      startInference({ model: path.join(this.dir, "model.onnx"), threads: this.threads, dim: this.dim, pooling: this.spec.pooling }),
      import("@huggingface/tokenizers"),
      readFile(path.join(this.dir, "tokenizer.json"), "utf8").then((t) => JSON.parse(t) as Record<string, unknown>),
    ]);
    const tokenizer = new Tokenizer(tokenizerJson, { do_lower_case: true, model_max_length: this.spec.maxTokens });
    const max = this.spec.maxTokens;
    return {
      infer,
      encode: (text: string) => {
        const ids = tokenizer.encode(text).ids;
        // Truncate to the model's length, keeping the closing [SEP].
        return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1]!];
      },
    };
  });

  async embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    assertAuthorisedIdentity(identity);
    if (signal?.aborted) throw new AppError("canceled");
    if (texts.length === 0) return [];
    if (texts.length === 1) return [await this.embedQuery(identity, texts[0]!, signal)];
    return this.embedMany(texts, signal);
  }

  /** One text (a recall's query), through the per-principal cache. */
  private async embedQuery(identity: Identity, text: string, signal?: AbortSignal): Promise<number[]> {
    const key = `${identity.tenant_id}\u0000${identity.subject_id}\u0000${text}`;
    const now = Date.now();
    const hit = this.recent.get(key);
    this.recent.delete(key);
    if (hit && now - hit.at < QUERY_CACHE_MS) {
      this.recent.set(key, hit);
      return hit.vector.slice();
    }
    const [vector] = await this.embedMany([text], signal);
    this.recent.set(key, { at: now, vector: vector!.slice() });
    while (this.recent.size > QUERY_CACHE_SIZE) this.recent.delete(this.recent.keys().next().value!);
    return vector!;
  }

  private async embedMany(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const m = await this.load();
    const prefix = this.spec.prefix ?? "";
    const encoded = texts.map((t) => m.encode(prefix + (humanise(t) || t)));
    // Similar lengths share a batch, so padding stays small.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const out = new Array<number[]>(texts.length);
    for (let start = 0; start < order.length; ) {
      if (signal?.aborted) throw new AppError("canceled");
      // Sorted by length, so the last text of a batch is its longest.
      let end = start + 1;
      while (end < order.length && end - start < MODEL_BATCH && (end - start + 1) * encoded[order[end]!]!.length <= MODEL_BATCH_TOKENS) end++;
      const idx = order.slice(start, end);
      const vectors = await this.serial(() => m.infer(idx.map((i) => encoded[i]!)));
      idx.forEach((i, j) => (out[i] = vectors[j]!));
      start = end;
    }
    return out;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

}

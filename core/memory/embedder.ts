/**
 * Embedders (VEC-3, WRK-4). There is no anonymous global embedder: every call
 * takes the authorised Identity and refuses one that is not a validated,
 * frozen identity (makeIdentity output), so embedding work always runs under
 * a resolved execution.
 *
 *  - the sentence model (db/embedding/sentence-model.ts), the default, wrapped
 *    in `FallbackEmbedder`: if its files are missing or fail their checksum,
 *    or it cannot load, hashing serves instead (a warning, a metric, /readyz);
 *  - LocalHashEmbedder (the fallback, and tests that need no model; no
 *    download, deterministic): signed feature
 *    hashing of identifier parts (stemmed word, 4-letter prefix, character
 *    3/4-grams) into `dim` buckets, L2-normalised. It models sub-word and
 *    morphological similarity ("tokens" ~ "TokenStore", "auth" ~
 *    "authentication", "caching" ~ "CacheLayer"), the complement of BM25's
 *    exact terms.
 *  - OpenAIEmbedder: any OpenAI-compatible `/embeddings` endpoint (OpenAI,
 *    Ollama, vLLM), by configuration.
 */
import { createHash } from "node:crypto";
import { AppError } from "../errors";
import type { ProviderGate } from "../provider-limits";
import { makeIdentity, sameIdentity, type Identity } from "../execution/identity";
import type { FusionByKind } from "../recall/recall";
import { stem, tokenize } from "../recall/tokenize";

export interface Embedder {
  /** Names the vector space (model and dimension); vectors of different models never mix. */
  readonly model: string;
  readonly dim: number;
  embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /**
   * How recall fuses this embedder's dense list with BM25, per kind of memory (core/recall/recall.ts),
   * measured on the labelled recall sets' dev halves (docs/memory.md); DEFAULT_FUSION when absent.
   */
  readonly fusion?: FusionByKind;
  /** Which embedder serves, for /readyz and the metrics; absent for a single, fixed embedder. */
  status?(): Promise<EmbedderStatus>;
}

export interface EmbedderStatus {
  /** The model that serves now. */
  model: string;
  /** Set when the configured model could not serve and hashing does: why (a code, never a path). */
  fallback?: "model_missing" | "checksum_mismatch" | "load_failed";
}

/** What FallbackEmbedder needs of the model: its checks and its loading, separately from embedding. */
export interface LoadableEmbedder extends Embedder {
  /** Files present and equal to their pinned checksums; rejects with details.reason otherwise. */
  verify(): Promise<void>;
  /** Verifies, then loads the weights (first use only). */
  load(): Promise<unknown>;
}

/**
 * The configured model, or hashing when the model cannot serve. Until the
 * first embed (or status()) nothing is checked or loaded. The decision is
 * taken once per process and never flips back, so one process never writes
 * two vector spaces for the same entities; `model` names whichever serves, and
 * callers read it after `embed` (search and upsert filter by it).
 */
export class FallbackEmbedder implements Embedder {
  private active: Embedder;
  private reason: EmbedderStatus["fallback"];
  private decided: Promise<void> | undefined;

  constructor(
    private readonly primary: LoadableEmbedder,
    private readonly fallback: Embedder,
    private readonly onFallback: (reason: NonNullable<EmbedderStatus["fallback"]>, model: string) => void,
  ) {
    this.active = primary;
  }

  get model(): string {
    return this.active.model;
  }

  get dim(): number {
    return this.active.dim;
  }

  get fusion(): FusionByKind | undefined {
    return this.active.fusion;
  }

  private decide(): Promise<void> {
    return (this.decided ??= this.primary.load().then(
      () => undefined,
      (err: unknown) => {
        const r = err instanceof AppError ? (err.details as { reason?: unknown } | undefined)?.reason : undefined;
        this.reason = r === "model_missing" || r === "checksum_mismatch" ? r : "load_failed";
        this.active = this.fallback;
        this.onFallback(this.reason, this.primary.model);
      },
    ));
  }

  async embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    assertAuthorisedIdentity(identity);
    await this.decide();
    return this.active.embed(identity, texts, signal);
  }

  /** Which embedder serves. Before the first embed it checks the files only (no load), so /readyz stays cheap. */
  async status(): Promise<EmbedderStatus> {
    if (!this.decided) {
      try {
        await this.primary.verify();
      } catch {
        await this.decide();
      }
    }
    return { model: this.active.model, ...(this.reason ? { fallback: this.reason } : {}) };
  }
}

/** Refuses anything but a validated, frozen identity. */
export function assertAuthorisedIdentity(identity: Identity | undefined): Identity {
  if (!identity || !Object.isFrozen(identity)) throw new AppError("unauthenticated", { message: "Embedding needs an authorised execution identity." });
  const checked = makeIdentity(identity);
  if (!sameIdentity(checked, identity)) throw new AppError("invalid_identity");
  return identity;
}

function bucket(feature: string, dim: number): [number, number] {
  const d = createHash("md5").update(feature).digest();
  const idx = d.readUInt32LE(0) % dim;
  const sign = (d[4]! & 1) === 0 ? 1 : -1;
  return [idx, sign];
}

/** Feature weights of the local embedder (see `LocalHashEmbedder.vector`). */
const WORD_WEIGHT = 1;
const PREFIX_WEIGHT = 0.6;
const GRAMS_WEIGHT = 1.2;

export class LocalHashEmbedder implements Embedder {
  readonly model: string;
  private readonly cache = new Map<string, Array<[number, number]>>();

  constructor(readonly dim = 256) {
    // v3: v2's features with the Porter/Lovins-style stemmer of
    // core/recall/tokenize.ts (the stemmed-word feature changed). v2: character
    // n-grams per identifier part; a different space than v1's
    // word+trigram hashing, so it has its own model name (vectors never mix).
    this.model = `local-hash-v3-${dim}`;
  }

  /**
   * Each identifier part or word (camelCase, snake_case, paths split) adds
   * signed, hashed features:
   *  - the stemmed word (weight 1): inflections meet (`invoices`/`Invoice`);
   *  - its first four letters (0.6): abbreviations meet (`auth`/`authentication`,
   *    `repo`/`repository`);
   *  - its character 3- and 4-grams with boundary marks, together weighted
   *    1.2 and spread evenly (each gram 1.2/√n), so a long word does not
   *    outweigh a short one: morphological and sub-word similarity
   *    (`caching`/`CacheLayer`, `scanning`/`VirusScanner`).
   * The sum is L2-normalised. Deterministic, no vocabulary, no IDF, no download.
   */
  vector(text: string): number[] {
    const v = new Array<number>(this.dim).fill(0);
    for (const t of tokenize(text)) {
      for (const [i, w] of this.features(t)) v[Math.abs(i) - 1]! += Math.sign(i) * w;
    }
    const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0));
    return norm === 0 ? v : v.map((x) => x / norm);
  }

  /** Signed (bucket+1, weight) pairs of one token, memoised. */
  private features(token: string): Array<[number, number]> {
    const hit = this.cache.get(token);
    if (hit) return hit;
    const out: Array<[number, number]> = [];
    const add = (f: string, w: number) => {
      const [i, s] = bucket(f, this.dim);
      out.push([s * (i + 1), w]);
    };
    add(`w:${stem(token)}`, WORD_WEIGHT);
    if (token.length >= 4 && !/^[0-9]+$/.test(token)) add(`p:${token.slice(0, 4)}`, PREFIX_WEIGHT);
    const padded = `^${token}$`;
    const grams: string[] = [];
    for (const n of [3, 4]) for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
    for (const g of grams) add(`g:${g}`, GRAMS_WEIGHT / Math.sqrt(grams.length));
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(token, out);
    return out;
  }

  async embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    assertAuthorisedIdentity(identity);
    if (signal?.aborted) throw new AppError("canceled");
    return texts.map((t) => this.vector(t));
  }
}

export class OpenAIEmbedder implements Embedder {
  constructor(
    private readonly opts: { baseUrl: string; model: string; dim: number; apiKey?: string | undefined; timeoutMs?: number; gate?: ProviderGate | undefined },
  ) {}

  get model(): string {
    return this.opts.model;
  }

  get dim(): number {
    return this.opts.dim;
  }

  async embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    assertAuthorisedIdentity(identity);
    if (texts.length === 0) return [];
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 15_000);
    const call = () => fetch(`${this.opts.baseUrl.replace(/\/$/, "")}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.opts.model, input: texts }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((err: unknown) => {
      throw new AppError("unavailable", { message: "The embedding endpoint is not reachable.", cause: err });
    });
    const res = this.opts.gate ? await this.opts.gate.run(signal, call) : await call();
    if (!res.ok) throw new AppError("unavailable", { message: `The embedding endpoint answered ${res.status}.` });
    const body = (await res.json()) as { data?: Array<{ embedding?: unknown; index?: number }> };
    const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (data.length !== texts.length) throw new AppError("unavailable", { message: "The embedding endpoint returned the wrong number of vectors." });
    return data.map((d) => {
      if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === "number" && Number.isFinite(x))) {
        throw new AppError("unavailable", { message: "The embedding endpoint returned an invalid vector." });
      }
      return d.embedding as number[];
    });
  }
}

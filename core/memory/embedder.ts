/**
 * Embedders (VEC-3, WRK-4). There is no anonymous global embedder: every call
 * takes the authorised Identity and refuses one that is not a validated,
 * frozen identity (makeIdentity output), so embedding work always runs under
 * a resolved execution.
 *
 *  - LocalHashEmbedder (default, no download, deterministic): feature hashing
 *    of word tokens, identifier parts and character trigrams into `dim`
 *    buckets with signed hashing, L2-normalised. Trigrams make it tolerant of
 *    inflections and abbreviations ("tokens" ~ "TokenStore", "auth" ~
 *    "authentication") where exact-term BM25 is not.
 *  - OpenAIEmbedder: any OpenAI-compatible `/embeddings` endpoint (OpenAI,
 *    Ollama, vLLM), by configuration.
 */
import { createHash } from "node:crypto";
import { AppError } from "../errors";
import { makeIdentity, sameIdentity, type Identity } from "../execution/identity";
import { tokenize } from "../recall/tokenize";

export interface Embedder {
  /** Names the vector space; vectors of different models never mix. */
  readonly model: string;
  readonly dim: number;
  embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]>;
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

export class LocalHashEmbedder implements Embedder {
  readonly model: string;
  constructor(readonly dim = 256) {
    this.model = `local-hash-${dim}`;
  }

  vector(text: string): number[] {
    const v = new Array<number>(this.dim).fill(0);
    const add = (f: string, w: number) => {
      const [i, s] = bucket(f, this.dim);
      v[i]! += s * w;
    };
    for (const t of tokenize(text)) {
      add(`w:${t}`, 1);
      const padded = `^${t}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, 0.5);
    }
    const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0));
    return norm === 0 ? v : v.map((x) => x / norm);
  }

  async embed(identity: Identity, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    assertAuthorisedIdentity(identity);
    if (signal?.aborted) throw new AppError("canceled");
    return texts.map((t) => this.vector(t));
  }
}

export class OpenAIEmbedder implements Embedder {
  constructor(
    private readonly opts: { baseUrl: string; model: string; dim: number; apiKey?: string | undefined; timeoutMs?: number },
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
    const res = await fetch(`${this.opts.baseUrl.replace(/\/$/, "")}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.opts.model, input: texts }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((err: unknown) => {
      throw new AppError("unavailable", { message: "The embedding endpoint is not reachable.", cause: err });
    });
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

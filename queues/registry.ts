/**
 * The catalog of job kinds. The composition root builds one registry holding
 * every handler (workers/) and hands it to the API (which only reads the kind
 * definitions: pool, params schema, repo level) and to the worker pools.
 */
import { isPool, type JobKind } from "./jobs";

const KIND_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;

export class JobRegistry<K extends JobKind<any> = JobKind<any>> {
  readonly #kinds = new Map<string, K>();

  register(k: K): this {
    if (!KIND_PATTERN.test(k.kind)) throw new Error(`job kind name is not valid: ${k.kind}`);
    if (!isPool(k.pool)) throw new Error(`job kind ${k.kind}: unknown pool ${k.pool}`);
    if (this.#kinds.has(k.kind)) throw new Error(`job kind ${k.kind} is already registered`);
    if (!Number.isInteger(k.maxAttempts) || k.maxAttempts < 1 || k.maxAttempts > 25) throw new Error(`job kind ${k.kind}: maxAttempts must be 1..25`);
    // JOB-4: a kind that must never be restarted gets no retry either.
    if (!k.restartable && k.maxAttempts !== 1) throw new Error(`job kind ${k.kind}: a non-restartable kind has maxAttempts 1`);
    this.#kinds.set(k.kind, k);
    return this;
  }

  get(kind: string): K | undefined {
    return this.#kinds.get(kind);
  }

  list(): K[] {
    return [...this.#kinds.values()];
  }
}

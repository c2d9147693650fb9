/**
 * Execution contexts (ID-3, ID-4). An ExecutionContext carries one identity,
 * an AbortSignal and an optional deadline. The identity can be bound once:
 * binding the same identity again is a no-op, binding a different one throws,
 * and nothing can replace it afterwards (the field is read-only and frozen).
 *
 * The same context travels implicitly through AsyncLocalStorage
 * (`runInExecution`), so code deep in a call chain (the LLM registry, an
 * embedder, a store) can `requireIdentity()` without being handed it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { AppError } from "../errors";
import { sameIdentity, type Identity } from "./identity";

export class ExecutionContext {
  #identity: Identity | undefined;
  readonly signal: AbortSignal;
  readonly deadline: number | undefined;

  constructor(opts: { identity?: Identity; signal?: AbortSignal; deadline?: Date | number } = {}) {
    this.signal = opts.signal ?? new AbortController().signal;
    this.deadline = opts.deadline === undefined ? undefined : typeof opts.deadline === "number" ? opts.deadline : opts.deadline.getTime();
    if (opts.identity) this.bind(opts.identity);
    Object.freeze(this);
  }

  get identity(): Identity | undefined {
    return this.#identity;
  }

  /** Binds the identity once. Rebinding the same identity is allowed; any other throws. */
  bind(identity: Identity): this {
    if (!Object.isFrozen(identity)) throw new AppError("invalid_identity", { message: "Only a validated (frozen) identity can be bound." });
    if (this.#identity) {
      if (sameIdentity(this.#identity, identity)) return this;
      throw new AppError("invalid_identity", { message: "This execution context is already bound to another identity." });
    }
    this.#identity = identity;
    return this;
  }
}

const storage = new AsyncLocalStorage<ExecutionContext>();

/** Runs fn with ctx as the current execution context. Nesting a different identity throws. */
export function runInExecution<T>(ctx: ExecutionContext, fn: () => T): T {
  const outer = storage.getStore();
  if (outer?.identity && ctx.identity && !sameIdentity(outer.identity, ctx.identity)) {
    throw new AppError("invalid_identity", { message: "A different identity cannot be bound inside an execution." });
  }
  return storage.run(ctx, fn);
}

export function currentExecution(): ExecutionContext | undefined {
  return storage.getStore();
}

/**
 * ID-4: the identity of ctx (or of the current execution), refusing a missing
 * identity, a canceled context and an expired deadline. Repository
 * authorization is a separate check (core/authorize.ts).
 */
export function requireIdentity(ctx: ExecutionContext | undefined = currentExecution(), now: number = Date.now()): Identity {
  if (!ctx?.identity) throw new AppError("unauthenticated", { message: "No execution identity is bound." });
  if (ctx.signal.aborted) throw new AppError("canceled");
  if (ctx.deadline !== undefined && now >= ctx.deadline) throw new AppError("deadline_exceeded");
  return ctx.identity;
}

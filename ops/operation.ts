/**
 * An operation of the platform, declared once: its name, input and output
 * schemas (bounds from core/limits.ts), the repository permission it needs,
 * where it is mounted over HTTP and as which MCP tool, and `run`. The REST
 * mounter (api/operations.ts) and the MCP mounter (api/mcp/tools/operations.ts)
 * turn the catalog (ops/catalog.ts) into routes and tools, and the OpenAPI
 * document (api/openapi.ts) is generated from it: nothing is written twice.
 *
 * `run` is handed what the mounter already holds — the Authorized identity
 * (with the repository resolved at `level` when the operation names one) and
 * the principal — and the services; it never resolves an identity itself.
 */
import { z } from "zod";
import type { Authorized, Principal, RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import type { Logger } from "../core/log";
import type { MemoryServices } from "../core/memory/services";
import type { RateLimits } from "../core/rate-limit";
import type { Db, RepoLevel } from "../db/schema";
import type { JobQueue } from "../queues/submit";
import type { JobEvents } from "./job-events";

/** What an operation may use. The API's AppContext is one. */
export interface OpServices {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  memory?: MemoryServices | undefined;
  /** Durable jobs; the submit operations answer 503 without them. */
  jobs?: JobQueue | undefined;
  /** Rate limits (the app sets them). */
  limits?: RateLimits | undefined;
  /** The shared job-status watcher of waits and event streams (ops/job-events.ts), made on first use. */
  jobEvents?: JobEvents | undefined;
  /** Closed at shutdown, before the server. */
  closers?: Array<() => Promise<void>> | undefined;
}

export interface OpCall {
  auth: Authorized;
  /** Set when the operation declares `level`: `input.repo` resolved at that level. */
  repo: RepoAccess | undefined;
  principal: Principal;
  services: OpServices;
  signal: AbortSignal;
  /** A raw-body route's bytes (HttpBinding.raw), read on demand: after the repository check, never before. */
  body?: () => Promise<Buffer | undefined>;
}

export interface HttpBinding {
  method: "get" | "post" | "delete";
  /** Express path; its `:params` are input fields. */
  path: string;
  /** The success status (200 by default; an operation with no output answers 204). */
  status?: number;
  /** This route's own title, when one operation has two routes (the reference lists each under its title; titles are unique). */
  title?: string;
  /** Input fields this route fixes (one operation, two routes); the client may not send them. */
  fixed?: Record<string, unknown>;
  /** Input fields named otherwise in this route's path, query or body (field → name on the wire). */
  rename?: Record<string, string>;
  /** Input fields read from request headers (field → header name, lower case). */
  fromHeaders?: Record<string, string>;
  /** Output fields sent as response headers, not in the body (field → header name); an absent field sends none. */
  toHeaders?: Record<string, string>;
  /** Other success statuses `run` may answer with (`withStatus`). */
  otherStatus?: readonly number[];
  /**
   * Not a JSON body: the raw bytes of a kind the REST mounter knows (its content types, size
   * limit and refusals; api/operations.ts), read by `run` through `call.body()`.
   */
  raw?: "archive";
  /** A Server-Sent Events stream: `run` answers an EventStream, or null (204: nothing more will come). */
  stream?: boolean;
}

/** One Server-Sent Event. */
export interface StreamEvent {
  event: string;
  data: unknown;
  id?: string;
}

/**
 * A stream operation's answer. `events` ends when nothing more will come; it also ends, and lets
 * go of what it holds, when the call's signal aborts (the client went away, the stream's lifetime
 * ran out). A comment line every `heartbeatMs` keeps proxies from closing an idle stream; after
 * `maxMs` the stream ends and the client reconnects (and is authorized again).
 */
export interface EventStream {
  events: AsyncIterable<StreamEvent>;
  heartbeatMs: number;
  maxMs: number;
}

/** A result answered with another of the binding's success statuses (`otherStatus`). */
export class WithStatus<O> {
  constructor(
    readonly status: number,
    readonly body: O,
  ) {}
}

/**
 * The operation as an MCP tool: its name and the behaviour hints MCP clients show
 * (`readOnlyHint`, `destructiveHint`, `idempotentHint`; each set only where true).
 */
export interface McpBinding {
  tool: string;
  /** Changes nothing. */
  readOnly?: boolean;
  /** Removes or overwrites what the caller had (only meaningful when not read-only). */
  destructive?: boolean;
  /** Calling again with the same arguments has no further effect. */
  idempotent?: boolean;
  /** Answers `{job_id}` of a job it queued: over MCP it may answer a task for that job instead. */
  task?: boolean;
}

/**
 * Whom an operation runs as. `execution` (the default): an execution identity (credential plus
 * the execution-session headers) — the only kind the MCP mounter makes a tool. Control-plane
 * operations (registering or revoking a session, the signed-in user's own pages) need a credential
 * but no execution session, or nothing at all, and are never tools.
 */
export type OperationAuth = "execution" | "credential" | "none";

export interface Operation<S extends z.ZodRawShape = z.ZodRawShape, O = unknown> {
  /** Stable id, `area.verb` (OpenAPI operationId). */
  name: string;
  title: string;
  /** For agents and for the reference: what it does and what it answers. */
  description: string;
  /** The input fields, every one bounded; mounters make the object strict (unknown fields are refused). */
  input: S;
  /** The success body; null: none (204). */
  output: z.ZodType<O> | null;
  /** The repository permission on `input.repo` this needs, checked before `run`. */
  level?: RepoLevel;
  http?: readonly HttpBinding[];
  /** Whom it runs as; absent: `execution`. */
  auth?: OperationAuth;
  mcp?: McpBinding;
  /** Rules across fields (exactly one source), checked after the fields' own schemas. */
  refine?: (input: z.infer<z.ZodObject<S>>, ctx: z.RefinementCtx) => void;
  run(call: OpCall, input: z.infer<z.ZodObject<S>>): Promise<O | WithStatus<O> | EventStream | null>;
}

export function defineOperation<S extends z.ZodRawShape, O>(op: Operation<S, O>): Operation<S, O> {
  return op;
}

/** The whole input schema both mounters validate with: strict (an unknown field is refused), then `refine`. */
export function inputSchemaOf(op: Operation): z.ZodType {
  const base = z.strictObject(op.input);
  return op.refine ? base.superRefine(op.refine as (v: unknown, ctx: z.RefinementCtx) => void) : base;
}

/**
 * An operation of the platform, declared once: its name, input and output
 * schemas (bounds from core/limits.ts), the repository permission it needs,
 * where it is mounted over HTTP, as which MCP tool or CLI command, and `run`.
 * The REST mounter (api/operations.ts), the MCP mounter (api/mcp/tools/operations.ts)
 * and the CLI mounter (api/cli-operations.ts) turn the catalog (ops/catalog.ts)
 * into routes, tools and commands, and the OpenAPI
 * document (api/openapi.ts) is generated from it: nothing is written twice.
 *
 * `run` is handed what the mounter already holds — the Authorized identity
 * (with the repository resolved at `level` when the operation names one) and
 * the principal — and the services; it never resolves an identity itself.
 *
 * Five kinds of operation, by what the caller must present (`auth`):
 *   execution   credentials AND a registered session in the execution headers
 *               (the default): every data-plane operation; `run` gets an OpCall.
 *   credential  credentials only (an API key or a browser sign-in), no session:
 *               the control plane a runtime uses before and after its work —
 *               registering and revoking a session, who the key is; `run` gets
 *               a CredentialCall.
 *   none        nothing: signing in and out; `run` gets a PublicCall.
 *   platform_admin  a platform admin's credentials: the operators' API over
 *               every job; `run` gets a CredentialCall.
 *   local_admin what the local operator may do (accounts, webhooks): the
 *               CLI on the database itself, the server's local admin token
 *               (whoever can read the embedded data directory holds the whole
 *               database), or a platform admin's credentials; `run` gets an
 *               AdminCall. These are the `codesynapse admin` commands (`cli`).
 * Only execution operations are ever MCP tools: a tool call always runs as a
 * session (MCP-2), so a mounter of tools skips the other kinds.
 */
import { z } from "zod";
import type { Actor } from "../core/auth/authenticate";
import type { Authorized, EarlierRead, Principal, RepoAccess } from "../core/authorize";
import type { Clock } from "../core/clock";
import type { Config } from "../core/config";
import type { Logger } from "../core/log";
import type { MemoryServices } from "../core/memory/services";
import type { RateLimits } from "../core/rate-limit";
import type { SessionCleaners } from "../core/retention/cleaners";
import type { ErrorCode } from "../core/errors";
import type { Stores } from "../core/stores";
import type { Db, RepoLevel, Tx } from "../db/schema";
import type { IdentityStore } from "../core/identity-store";
import type { JobQueue } from "../queues/submit";
import type { JobEvents } from "./job-events";

/** What an operation may use. The API's AppContext is one. */
export interface OpServices {
  db: Db;
  identity: IdentityStore;
  /** The relational stores the rules use (core/stores.ts), over `db`. */
  stores: Stores<Tx>;
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
  /** The stores' session cleaners: revocation attempts the data cleanup at once (RET-1). */
  cleaners?: SessionCleaners | undefined;
}

/** What the caller must present: see the file's comment. */
export type AuthKind = "execution" | "credential" | "none" | "platform_admin" | "local_admin";

/** The auth kind of an operation (execution unless it says otherwise). */
export function authOf(op: Pick<Operation, "auth">): AuthKind {
  return op.auth ?? "execution";
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
  /** The boundary's authorization read: a check of the same caller made while it is fresh uses it (core/authorize.ts). */
  read?: EarlierRead | undefined;
}

/** What a `none` operation is handed: no caller, only where the call came from. */
export interface PublicCall {
  services: OpServices;
  signal: AbortSignal;
  /** The client's address as the transport sees it (rate limits key on it). */
  clientIp: string;
}

/** What a `credential` operation is handed: the authenticated caller, no execution session. */
export interface CredentialCall extends PublicCall {
  actor: Actor;
  principal: Principal;
}

/**
 * What a `local_admin` operation is handed: the platform admin who called over HTTP, or no one
 * for the local operator; `via` says which (audit records name it; the CLI on the database itself
 * is the operator at the machine and records nothing more than before).
 */
export interface AdminCall extends PublicCall {
  actor: Actor | undefined;
  via: "credential" | "local_admin_token" | "offline";
}

/** The call `run` gets, by the operation's auth kind. */
export type CallOf<K extends AuthKind> = K extends "execution"
  ? OpCall
  : K extends "credential" | "platform_admin"
    ? CredentialCall
    : K extends "local_admin"
      ? AdminCall
      : PublicCall;

export interface HttpBinding {
  method: "get" | "post" | "delete";
  /** Express path; its `:params` are input fields. */
  path: string;
  /** The success status (200 by default; an operation with no output answers 204). */
  status?: number;
  /** This route's own title, when one operation has two routes (the reference lists each under its title; titles are unique). */
  title?: string;
  /**
   * Input fields this route fixes (one operation, two routes); the client may not send them. A field
   * fixed to `undefined` is not part of this route at all (the body refuses it as unknown).
   */
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
  /** Input fields read from request cookies (field → cookie name); absent when the cookie is. */
  fromCookies?: Record<string, string>;
  /**
   * The sign-in cookie this answer sets: the output field holding its value and the one holding
   * its expiry (ISO time). Neither field is in the body; the mounter sets the cookie HttpOnly,
   * SameSite=Strict, path /, Secure per COOKIE_SECURE.
   */
  setCookie?: { name: string; value: string; expires: string };
  /** The cookie this answer clears (signing out). */
  clearCookie?: string;
  /** The event types of a stream and each one's data (OpenAPI documents them; the mounter sends what `run` yields). */
  events?: Record<string, z.ZodType>;
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

/** The operation as a `codesynapse admin` command: its flags are the input fields (`_` written `-`). */
export interface CliBinding {
  command: string;
}

export interface Operation<S extends z.ZodRawShape = z.ZodRawShape, O = unknown, K extends AuthKind = AuthKind> {
  /** Stable id, `area.verb` (OpenAPI operationId). */
  name: string;
  title: string;
  /** For agents and for the reference: what it does and what it answers. */
  description: string;
  /** The input fields, every one bounded; mounters make the object strict (unknown fields are refused). */
  input: S;
  /** The success body; null: none (204). */
  output: z.ZodType<O> | null;
  /** What the caller must present (default `execution`). */
  auth?: K;
  /** The repository permission on `input.repo` this needs, checked before `run` (execution operations). */
  level?: RepoLevel;
  /**
   * Error codes `run` itself may answer with, beyond what every operation of its kind can
   * (authentication, the session, validation, the repository check): the document lists each
   * one under its status.
   */
  errors?: readonly ErrorCode[];
  /** Rate-limited (429 `rate_limited` with Retry-After). */
  rateLimited?: boolean;
  /**
   * What `refine` checks, said in JSON Schema (oneOf, if/then, …) and merged into the request
   * schema the document gives, so generators and fuzzers produce only what the server accepts.
   * The contract fuzzer holds the two to agreeing (positive data accepted, negative refused).
   */
  inputRules?: Record<string, unknown>;
  /**
   * The largest JSON body (bytes) a call needs when its documented limits need more than the API's
   * BODY_LIMIT_BYTES: a field at its limit in any JSON encoding (core/limits.ts jsonStringMaxBytes).
   * The REST route takes this much, and so does /mcp, which carries every tool's call.
   */
  bodyBytes?: number;
  http?: readonly HttpBinding[];
  mcp?: McpBinding;
  cli?: CliBinding;
  /** Rules across fields (exactly one source), checked after the fields' own schemas. */
  refine?: (input: z.infer<z.ZodObject<S>>, ctx: z.RefinementCtx) => void;
  run(call: CallOf<K>, input: z.infer<z.ZodObject<S>>): Promise<O | WithStatus<O> | EventStream | null>;
}

export function defineOperation<S extends z.ZodRawShape, O, K extends AuthKind = "execution">(op: Operation<S, O, K>): Operation<S, O, K> {
  return op;
}

/** The whole input schema both mounters validate with: strict (an unknown field is refused), then `refine`. */
export function inputSchemaOf(op: Operation): z.ZodType {
  const base = z.strictObject(op.input);
  return op.refine ? base.superRefine(op.refine as (v: unknown, ctx: z.RefinementCtx) => void) : base;
}

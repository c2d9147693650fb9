/**
 * The runtime's client: one instance per chat thread, like one stdio MCP
 * process per thread. The API key and the thread's primary session ID are set
 * once, at construction, and sent on every call (Authorization and both
 * execution headers, HTTP-1); they are held in private fields and never appear
 * in an error, a message or `util.inspect` of the instance.
 *
 * Every catalog operation is `call(operationId, input)`, typed from the
 * generated OpenAPI types; the call goes through openapi-fetch. The control
 * plane (registration, revocation, `account.me`: operations whose route says
 * `auth: "credential"`) is sent with the key only, without the execution
 * headers; `register()` and `revoke()` are names for two of them.
 */
import createFetchClient, { type Client as FetchClient } from "openapi-fetch";
import { CodeSynapseError, fromResponse, fromThrown } from "./errors";
import { ROUTES, type paths } from "./generated/api";
import { readJob, submitJob, uploadSnapshot, waitForJob, type JobSubmission, type JobView, type UploadInfo, type WaitOptions } from "./jobs";
import type { Empty, Identity, Input, OperationId, Output } from "./types";

export const SESSION_HEADER = "x-codesynapse-session";
export const PARENT_HEADER = "x-codesynapse-parent-session";

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A personal API key (`csk_…`); it selects the organisation. */
  apiKey: string;
  /** This chat thread's primary session ID, supplied by the runtime (the platform never makes one up, ID-5). */
  sessionId: string;
  /** Extra headers on every call (a proxy's, `traceparent`); they cannot replace the key or the execution headers. */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies); globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Per call: an AbortSignal, and extra headers (`Idempotency-Key`). */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Rest<K extends OperationId> = Empty extends Input<K> ? [input?: Input<K>, options?: CallOptions] : [input: Input<K>, options?: CallOptions];

/** A route of the generated table. */
export interface RouteSpec {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  pathParams: readonly string[];
  body: boolean;
  /** What the caller presents: `execution` (key and session headers), `credential` (key only), `none`. */
  auth?: string;
}

export class CodeSynapseClient {
  readonly #http: FetchClient<paths>;
  readonly #apiKey: string;
  readonly #sessionId: string;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new CodeSynapseError("unauthenticated", "An API key is required.");
    if (!options.sessionId) throw new CodeSynapseError("invalid_session_header", "The chat thread's session ID is required.");
    this.#apiKey = options.apiKey;
    this.#sessionId = options.sessionId;
    this.#http = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /**
   * Registers this thread's session for the key's (organisation, user): created the
   * first time, the same binding and `expires_at` after that (REG-3). An ID another user or
   * organisation holds is `session_claimed`; a revoked or expired one `session_revoked`/`session_expired`.
   */
  register(options?: CallOptions): Promise<Identity> {
    return this.call("execution.register_session", { session_id: this.#sessionId }, options);
  }

  /** Revokes this thread's session for good; every later call answers `session_revoked`. */
  async revoke(options?: CallOptions): Promise<void> {
    await this.call("execution.revoke_session", { id: this.#sessionId }, options);
  }

  /** Runs one catalog operation as this thread's session. */
  call<K extends OperationId>(operationId: K, ...[input, options]: Rest<K>): Promise<Output<K>> {
    const route: RouteSpec = ROUTES[operationId];
    const control = route.auth !== undefined && route.auth !== "execution";
    return this.request(route, (input ?? {}) as Record<string, unknown>, { ...options, control }) as Promise<Output<K>>;
  }

  /** The identity the server resolves for this client (HTTP-1a): the call a runtime makes to check its wiring. */
  identity(options?: CallOptions): Promise<Identity> {
    return this.call("execution.identity", {}, options);
  }

  /** One of this session's jobs (`job_not_found` for any other). */
  job(id: string, options?: CallOptions): Promise<JobView> {
    return readJob(this, id, options);
  }

  /** Starts a job on a repository: `submit("ingest", "webapp", {upload_id})`, `submit("ai-tasks", repo, {task, question})`. */
  submit(submission: JobSubmission, repo: string, params: Record<string, unknown>, options?: CallOptions & { idempotencyKey?: string }): ReturnType<typeof submitJob> {
    return submitJob(this, submission, repo, params, options);
  }

  /** Uploads a repository snapshot (tar, tar.gz or zip bytes) for a later ingest. */
  upload(repo: string, archive: Uint8Array, options?: CallOptions): Promise<UploadInfo> {
    return uploadSnapshot(this, repo, archive, options);
  }

  /** Resolves with the job once it has ended, whatever the outcome; `wait_timeout` after `timeoutMs`. */
  waitForJob(id: string, options?: WaitOptions): Promise<JobView> {
    return waitForJob(this, id, options);
  }

  /**
   * One HTTP call through openapi-fetch, for a route of the generated table or a hand-written
   * one: path parameters into the path, the other fields into the query (no body) or the JSON
   * body; `raw` sends bytes as they are (uploads). `control`: a control-plane route, sent with
   * the key but without the execution headers. Prefer `call`.
   */
  async request(route: RouteSpec, input: Record<string, unknown>, options: RequestOptions = {}): Promise<unknown> {
    const pathValues: Record<string, string> = {};
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) {
      if (route.pathParams.includes(k)) pathValues[k] = String(v);
      else if (v !== undefined) rest[k] = v;
    }
    for (const p of route.pathParams) {
      if (!pathValues[p]) throw new CodeSynapseError("validation_failed", `The input field "${p}" is required.`);
    }
    // Set last: a caller's header never replaces the credentials or the thread's session.
    const headers: Record<string, string | null> = {
      ...options.headers,
      authorization: `Bearer ${this.#apiKey}`,
      [SESSION_HEADER]: options.control ? null : this.#sessionId,
      [PARENT_HEADER]: options.control ? null : this.#sessionId,
    };
    const init: Record<string, unknown> = {
      params: { path: pathValues, ...(route.body || options.raw ? {} : { query: rest }) },
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    if (options.raw) {
      init.body = options.raw;
      init.bodySerializer = (b: unknown) => b;
      headers["content-type"] = options.contentType ?? "application/octet-stream";
    } else if (route.body) {
      init.body = rest;
    }
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      result = await (this.#http.request as (m: string, p: string, i: unknown) => Promise<typeof result>)(route.method, route.path, init);
    } catch (err) {
      throw fromThrown(err, options.signal);
    }
    if (!result.response.ok) throw fromResponse(result.response.status, result.error);
    return result.data;
  }
}

export interface RequestOptions extends CallOptions {
  raw?: Uint8Array;
  contentType?: string;
  control?: boolean;
}

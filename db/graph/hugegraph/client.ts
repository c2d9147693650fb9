/**
 * A small client for the HugeGraph server (MEMORY_STORE=hugegraph): Gremlin
 * scripts over REST (`POST {url}/gremlin`, aliased to one graph) and the
 * graph-scoped REST API (schema, tasks). Scripts are constants; every value
 * travels in `bindings` (MEM-4). No driver dependency: plain fetch.
 *
 * A script refuses by throwing `IllegalStateException("codesynapse:<code>")`;
 * the client turns that into a `HugeGraphRefusal` carrying `<code>`, so the
 * store can map it to the platform's typed error. HugeGraph runs each request
 * in one transaction and rolls it back when the script throws.
 *
 * A busy server refuses a request before running it (503 with
 * ServiceUnavailableException: no free REST worker thread). Nothing of such a
 * request was done, so the client sends it again after a short, growing,
 * jittered pause, up to BUSY_RETRIES times; a server still busy then fails the
 * call with that 503.
 */

export interface HugeGraphOptions {
  /** REST base URL, e.g. http://127.0.0.1:18080 */
  url: string;
  /** Graph name (HUGEGRAPH_GRAPH); default "hugegraph". */
  graph?: string | undefined;
  /** Per-request timeout (ms); default 60 s. */
  timeoutMs?: number | undefined;
}

/** A refusal raised on purpose by one of our scripts (`codesynapse:<code>`). */
export class HugeGraphRefusal extends Error {
  constructor(readonly code: string) {
    super(`hugegraph script refused: ${code}`);
    this.name = "HugeGraphRefusal";
  }
}

/** Any other failure of the server (status and the server's exception class; never our bindings). */
export class HugeGraphError extends Error {
  constructor(
    readonly status: number,
    readonly exception: string,
    message: string,
  ) {
    super(`hugegraph ${status} ${exception}: ${message}`);
    this.name = "HugeGraphError";
  }
}

const REFUSAL = /^codesynapse:([a-z_]+)$/;

/** Sends of one request a busy server refused (503, before running it) before the call fails; pauses 25 ms doubling to 800 ms. */
export const BUSY_RETRIES = 8;
const BUSY_BASE_MS = 25;
const BUSY_MAX_MS = 800;

/** The server refused the request for want of a worker thread: it ran nothing. */
function refusedBusy(status: number, text: string): boolean {
  return status === 503 && text.includes("ServiceUnavailableException");
}

interface GremlinResponse {
  result?: { data?: unknown[] };
  status?: { code?: number; message?: string };
  exception?: string;
  message?: string;
}

export class HugeGraphClient {
  readonly url: string;
  readonly graph: string;
  private readonly timeoutMs: number;

  constructor(opts: HugeGraphOptions) {
    this.url = opts.url.replace(/\/+$/, "");
    this.graph = opts.graph ?? "hugegraph";
    this.timeoutMs = opts.timeoutMs ?? 60_000;
  }

  /** Runs a constant Gremlin-Groovy script with bindings; returns `result.data`. */
  async gremlin<T = unknown>(script: string, bindings: Record<string, unknown> = {}): Promise<T[]> {
    const { res, text } = await this.#send(`${this.url}/gremlin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ gremlin: script, bindings, language: "gremlin-groovy", aliases: { graph: this.graph, g: `__g_${this.graph}` } }),
    });
    let body: GremlinResponse;
    try {
      body = JSON.parse(text) as GremlinResponse;
    } catch {
      throw new HugeGraphError(res.status, "non-json", text.slice(0, 200));
    }
    if (res.status !== 200) {
      const m = REFUSAL.exec(body.message ?? "");
      if (m) throw new HugeGraphRefusal(m[1]!);
      throw new HugeGraphError(res.status, body.exception ?? "unknown", (body.message ?? "").slice(0, 300));
    }
    return (body.result?.data ?? []) as T[];
  }

  /** For scripts that end in `JsonOutput.toJson(x)`: one JSON string, parsed. */
  async json<T>(script: string, bindings: Record<string, unknown> = {}): Promise<T> {
    const data = await this.gremlin<string>(script, bindings);
    if (data.length !== 1 || typeof data[0] !== "string") throw new HugeGraphError(200, "shape", `expected one JSON string, got ${data.length} items`);
    return JSON.parse(data[0]) as T;
  }

  /** The graph's own description: one round trip that needs the server and the graph. */
  async ping(): Promise<void> {
    await this.rest("GET", "");
  }

  /** Graph-scoped REST call: `{url}/graphs/{graph}{path}`. */
  async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const { res, text } = await this.#send(`${this.url}/graphs/${encodeURIComponent(this.graph)}${path}`, {
      method,
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new HugeGraphError(res.status, "rest", text.slice(0, 300));
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** One request, sent again while a busy server refuses it (see above); each send has the full timeout. */
  async #send(url: string, init: RequestInit): Promise<{ res: Response; text: string }> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
      const text = await res.text();
      if (attempt >= BUSY_RETRIES || !refusedBusy(res.status, text)) return { res, text };
      const cap = Math.min(BUSY_MAX_MS, BUSY_BASE_MS * 2 ** attempt);
      await new Promise((r) => setTimeout(r, cap / 2 + Math.random() * (cap / 2)));
    }
  }

  /** Waits for an asynchronous schema task (index rebuilds) to finish. */
  async waitTask(taskId: number, timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const t = await this.rest<{ task_status?: string }>("GET", `/tasks/${taskId}`);
      if (t.task_status === "success") return;
      if (t.task_status === "failed" || t.task_status === "cancelled") throw new HugeGraphError(500, "task", `schema task ${taskId} ${t.task_status}`);
      if (Date.now() > until) throw new HugeGraphError(504, "task", `schema task ${taskId} still ${t.task_status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A per-key async mutex: calls with the same key run one after another, in this process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    try {
      await prev;
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

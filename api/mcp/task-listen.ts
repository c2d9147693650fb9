/**
 * Task status notifications (the `io.modelcontextprotocol/tasks` extension, protocol revision
 * 2026-07-28): `notifications/tasks` on a long-lived `subscriptions/listen` request whose filter
 * names `taskIds`. The SDK's listen router knows only the four list/resource change kinds, so
 * api/mcp/http.ts hands such a listen here, with the caller it resolved from the execution headers
 * of the listen request itself.
 *
 * Inputs: the listen request (its id is the subscription id), the caller, the app's one job watcher
 * (queues/job-watch.ts via ops/job-events.ts) and the HTTP response. States: refused (a JSON-RPC
 * error, nothing held), streaming (SSE: the acknowledgement, then one notification per change),
 * ended (every followed task terminal, the stream's lifetime over, or the watcher closed: the
 * listen result is written; the client closed: nothing is written). Invariants:
 *   - a task is followed only if `ownJob` — the read behind tasks/get — finds it for this caller:
 *     a job of another primary session, user or organisation, and an id that is no job's, are both
 *     dropped from the acknowledged filter alike, so the stream never names them or tells them apart;
 *   - at most MCP_LISTEN_MAX_TASKS task ids per listener and MCP_LISTENERS_PER_IDENTITY listeners per
 *     execution session on this node (beyond either: `limit_exceeded`); every watch is taken before
 *     the first byte, so a full watcher is still a clean JSON-RPC error;
 *   - each notification carries the whole task as tasks/get answers it, sent when its status or row
 *     version changes (changes quicker than the watcher's poll are seen as one);
 *   - on any end every watch is released, the heartbeat cleared and the identity's count returned.
 */
import type { Response } from "express";
import type { JSONRPCRequest } from "@modelcontextprotocol/server";
import { z } from "zod";
import { AppError } from "../../core/errors";
import { MCP_LISTEN_MAX_TASKS, MCP_LISTENERS_PER_IDENTITY } from "../../core/limits";
import { jobEventsOf } from "../../ops/job-events";
import { isTerminal } from "../../queues/job-watch";
import type { JobRow } from "../../queues/jobs";
import { ownJob } from "../../queues/read-job";
import type { AppContext } from "../context";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION, type ToolCaller } from "./server";
import { taskOf, TASKS_EXTENSION } from "./tasks";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

const ListenParams = z
  .object({
    notifications: z.object({ taskIds: z.array(z.string().max(200)).max(MCP_LISTEN_MAX_TASKS) }).loose(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/** Whether a `subscriptions/listen` request asks for task notifications (and so is served here, not by the SDK). */
export function isTaskListen(message: unknown): message is JSONRPCRequest {
  const m = message as { method?: unknown; params?: { notifications?: { taskIds?: unknown } } } | null;
  return m?.method === "subscriptions/listen" && m.params?.notifications?.taskIds !== undefined;
}

/** Listeners open on this node per execution session. */
export class ListenerCounts {
  readonly #open = new Map<string, number>();
  take(caller: ToolCaller): () => void {
    const key = `${caller.identity.tenant_id}\u0000${caller.identity.subject_id}\u0000${caller.identity.session_id}`;
    const n = this.#open.get(key) ?? 0;
    if (n >= MCP_LISTENERS_PER_IDENTITY) {
      throw new AppError("limit_exceeded", { message: "Too many task listeners are open for this session.", details: { limit: "MCP_LISTENERS_PER_IDENTITY" } });
    }
    this.#open.set(key, n + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left <= 0) this.#open.delete(key);
      else this.#open.set(key, left);
    };
  }
  get size(): number {
    return this.#open.size;
  }
}

/** Changes with the status and with every write of the row (progress, cancel requested). */
const versionOf = (row: JobRow) => `${row.updated_at.getTime()}-${row.status}`;

/**
 * Serves one task listen. Throws (before any byte is written) an AppError for a refusal; once the
 * stream is open it never throws.
 */
export async function serveTaskListen(ctx: AppContext, counts: ListenerCounts, caller: ToolCaller, message: JSONRPCRequest, res: Response): Promise<void> {
  const parsed = ListenParams.safeParse(message.params ?? {});
  if (!parsed.success) {
    throw new AppError("validation_failed", { message: `notifications.taskIds must be a list of at most ${MCP_LISTEN_MAX_TASKS} task ids.` });
  }
  const caps = parsed.data._meta?.[CLIENT_CAPABILITIES] as { extensions?: Record<string, unknown> } | undefined;
  const declared = caps?.extensions?.[TASKS_EXTENSION] !== undefined;
  const subscriptionId = message.id;
  const release = counts.take(caller);
  const unwatch: Array<() => void> = [];
  let streaming = false;
  try {
    // Only the caller's own tasks, read exactly as tasks/get reads them; anything else is dropped alike.
    const rows: JobRow[] = [];
    if (declared) {
      for (const id of new Set(parsed.data.notifications.taskIds)) {
        try {
          rows.push(await ownJob(ctx.db, caller.identity, id));
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== "job_not_found") throw err;
        }
      }
    }
    const ev = jobEventsOf(ctx);
    const last = new Map<string, string>();
    const pending: JobRow[] = [...rows];
    let wake: (() => void) | undefined;
    let ended = false;
    const end = () => {
      ended = true;
      wake?.();
    };
    for (const row of rows) {
      last.set(row.id, "");
      if (isTerminal(row)) continue;
      unwatch.push(
        ev.watcher.watch(
          row.id,
          (r) => {
            pending.push(r);
            wake?.();
          },
          end,
        ),
      );
    }

    res.status(200).set({ "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" });
    res.flushHeaders();
    streaming = true;
    const write = (msg: object) => res.write(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
    const stamp = { [SUBSCRIPTION_ID]: subscriptionId };
    write({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: declared ? { taskIds: rows.map((r) => r.id) } : {}, _meta: stamp } });

    // The response's close is the client going away (the request's own close fires once its body is read).
    res.once("close", end);
    const heartbeat = setInterval(() => res.write(": keepalive\n\n"), ev.heartbeatMs);
    heartbeat.unref();
    const lifetime = setTimeout(end, ev.maxStreamMs);
    lifetime.unref();
    const open = new Set(rows.map((r) => r.id));
    try {
      while (!ended) {
        const row = pending.shift();
        if (!row) {
          if (open.size === 0) break;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        if (!open.has(row.id)) continue;
        const v = versionOf(row);
        if (last.get(row.id) === v) continue;
        last.set(row.id, v);
        write({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...(await taskOf(ctx, row)), _meta: stamp } });
        if (isTerminal(row)) open.delete(row.id);
      }
      // Ended by the server (every task terminal, lifetime, shutdown): the listen's result, when the client still listens.
      if (!res.writableEnded && !res.destroyed) {
        write({ jsonrpc: "2.0", id: subscriptionId, result: { resultType: "complete", _meta: { ...stamp, "io.modelcontextprotocol/serverInfo": { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION } } } });
        res.end();
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
    }
  } catch (err) {
    if (!streaming) throw err;
    ctx.logger.warn({ code: "mcp_task_listen_failed", err: (err as Error).name }, "task listen stream ended on an error");
    if (!res.writableEnded) res.end();
  } finally {
    for (const u of unwatch) u();
    release();
  }
}

/**
 * Completion events (issue 14): `GET /api/v1/jobs/{id}/events`, a Server-Sent
 * Events stream of one job's status, for the execution identity that owns it.
 *
 *   - Authorization is GET /api/v1/jobs/{id}'s: requireExecution(), then getJob
 *     with the caller's identity; any other job (another session's, user's or
 *     tenant's) is the same 404 `job_not_found`, before any stream is opened.
 *   - The stream sends the current status first (`event: status`, data = the
 *     job view of GET /jobs/{id}), then each change the shared watcher sees
 *     (queues/job-watch.ts: one poll per process, not per client; changes
 *     quicker than a poll are seen as one), and ends after a terminal status
 *     with `event: end`. A reconnect (`Last-Event-ID` set) to a job already
 *     terminal gets 204, which tells EventSource to stop reconnecting.
 *   - A comment line (`: heartbeat`) every JOB_EVENTS_HEARTBEAT_MS keeps proxies
 *     from closing an idle stream. A stream lives at most JOB_EVENTS_MAX_STREAM_MS;
 *     the client reconnects, and the reconnect is authorized again (a revoked
 *     session is refused then). Shutdown ends every stream (ctx.closers).
 */
import { Router, type Response } from "express";
import { AppError } from "../../core/errors";
import { JOB_EVENTS_HEARTBEAT_MS, JOB_EVENTS_MAX_STREAM_MS } from "../../core/limits";
import type { JobRow } from "../../queues/jobs";
import { isTerminal, JobWatcher } from "../../queues/job-watch";
import { getJob } from "../../queues/sql/getJob";
import type { AppContext } from "../context";
import { executionOf, requireExecution } from "../execution";
import { route } from "../http";
import { jobIdOf, jobView } from "./jobs";

export interface JobEvents {
  watcher: JobWatcher;
  heartbeatMs: number;
  maxStreamMs: number;
  /** Open streams' closers (shutdown ends them all). */
  streams: Set<() => void>;
}

/** The context's job events, made (and registered for shutdown) on first use. */
export function jobEventsOf(ctx: AppContext, opts: Partial<Omit<JobEvents, "streams" | "watcher">> & { pollMs?: number } = {}): JobEvents {
  if (ctx.jobEvents) return ctx.jobEvents;
  const ev: JobEvents = {
    watcher: new JobWatcher({ db: ctx.db, logger: ctx.logger, ...(opts.pollMs ? { pollMs: opts.pollMs } : {}) }),
    heartbeatMs: opts.heartbeatMs ?? JOB_EVENTS_HEARTBEAT_MS,
    maxStreamMs: opts.maxStreamMs ?? JOB_EVENTS_MAX_STREAM_MS,
    streams: new Set(),
  };
  ctx.jobEvents = ev;
  (ctx.closers ??= []).push(async () => {
    for (const close of [...ev.streams]) close();
    ev.watcher.close();
  });
  return ev;
}

const frame = (event: string, data: unknown, id?: string) => `${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
/** Changes with the status and with every write of the row (attempts, cancel requested). */
const versionOf = (row: JobRow) => `${row.updated_at.getTime()}-${row.status}`;

export function jobEventRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get(
    "/api/v1/jobs/:id/events",
    requireExecution(ctx),
    route(async (req, res) => {
      const job = await getJob(ctx.db, executionOf(req).identity, jobIdOf(req.params.id));
      if (!job) throw new AppError("job_not_found");
      if (req.headers["last-event-id"] !== undefined && isTerminal(job)) {
        res.status(204).end();
        return;
      }
      const ev = jobEventsOf(ctx);
      stream(ev, res, job);
    }),
  );
  return r;
}

function stream(ev: JobEvents, res: Response, first: JobRow): void {
  let last = "";
  // Subscribe before any byte is sent: a full watcher is still a clean 503.
  const unwatch = isTerminal(first) ? () => {} : ev.watcher.watch(first.id, (row) => send(row));
  const heartbeat = setInterval(() => res.write(": heartbeat\n\n"), ev.heartbeatMs);
  const lifetime = setTimeout(() => close(), ev.maxStreamMs);
  const close = () => {
    ev.streams.delete(close);
    unwatch();
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    if (!res.writableEnded) res.end();
  };
  const send = (row: JobRow) => {
    const v = versionOf(row);
    if (v === last || res.writableEnded) return;
    last = v;
    res.write(frame("status", jobView(row), v));
    if (isTerminal(row)) {
      res.write(frame("end", { status: row.status }));
      close();
    }
  };
  res.status(200);
  res.setHeader("content-type", "text/event-stream; charset=utf-8");
  res.setHeader("cache-control", "no-cache, no-transform");
  res.setHeader("x-accel-buffering", "no"); // nginx: do not buffer the stream
  res.flushHeaders();
  res.write("retry: 2000\n\n");
  ev.streams.add(close);
  res.on("close", close);
  send(first);
}

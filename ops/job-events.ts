/**
 * Job status events: the one status watcher per process
 * (queues/job-watch.ts: one poll per process, not per client; changes quicker
 * than a poll are seen as one) behind `GET /api/v1/jobs/{id}/events` and the
 * bounded waits of `GET /api/v1/jobs/{id}?wait=` and `get_job`'s `wait_ms`.
 *
 * `statusEvents` is one job's stream: the current status first (`status`,
 * data = the job view, id = a version that changes with every write of the
 * row), then each change, then `end` after a terminal status. It subscribes
 * when called — before any byte is sent, so a full watcher is still a clean
 * 503 — and lets go when the call's signal aborts or the watcher closes
 * (shutdown ends every stream and answers every wait at once).
 */
import { JOB_EVENTS_HEARTBEAT_MS, JOB_EVENTS_MAX_STREAM_MS } from "../core/limits";
import type { Logger } from "../core/log";
import type { Db } from "../db/schema";
import type { JobRow } from "../queues/jobs";
import { isTerminal, JobWatcher } from "../queues/job-watch";
import { viewJob, type JobViewHost } from "./job-view";
import type { StreamEvent } from "./operation";

export interface JobEvents {
  watcher: JobWatcher;
  heartbeatMs: number;
  maxStreamMs: number;
}

interface JobEventsHost {
  db: Db;
  logger: Logger;
  jobEvents?: JobEvents | undefined;
  closers?: Array<() => Promise<void>> | undefined;
}

/** The host's job events, made (and registered for shutdown) on first use. */
export function jobEventsOf(host: JobEventsHost, opts: { pollMs?: number; heartbeatMs?: number; maxStreamMs?: number } = {}): JobEvents {
  if (host.jobEvents) return host.jobEvents;
  const ev: JobEvents = {
    watcher: new JobWatcher({ db: host.db, logger: host.logger, ...(opts.pollMs ? { pollMs: opts.pollMs } : {}) }),
    heartbeatMs: opts.heartbeatMs ?? JOB_EVENTS_HEARTBEAT_MS,
    maxStreamMs: opts.maxStreamMs ?? JOB_EVENTS_MAX_STREAM_MS,
  };
  host.jobEvents = ev;
  (host.closers ??= []).push(async () => ev.watcher.close());
  return ev;
}

/** Changes with the status and with every write of the row (attempts, cancel requested). */
const versionOf = (row: JobRow) => `${row.updated_at.getTime()}-${row.status}`;

export function statusEvents(host: JobViewHost, watcher: JobWatcher, first: JobRow, signal: AbortSignal): AsyncIterable<StreamEvent> {
  const rows: JobRow[] = [first];
  let done = isTerminal(first);
  let wake = () => {};
  const unwatch = done
    ? () => {}
    : watcher.watch(
        first.id,
        (row) => {
          rows.push(row);
          wake();
        },
        () => stop(),
      );
  const stop = () => {
    done = true;
    unwatch();
    wake();
  };
  signal.addEventListener("abort", stop, { once: true });
  return (async function* () {
    let last = "";
    try {
      while (!signal.aborted) {
        const row = rows.shift();
        if (!row) {
          if (done) return;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const v = versionOf(row);
        if (v === last) continue;
        last = v;
        yield { event: "status", data: await viewJob(host, row), id: v };
        if (isTerminal(row)) {
          yield { event: "end", data: { status: row.status } };
          return;
        }
      }
    } finally {
      signal.removeEventListener("abort", stop);
      stop();
    }
  })();
}

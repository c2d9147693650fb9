/**
 * Sends a stream operation's EventStream (ops/operation.ts) as Server-Sent
 * Events: `retry: 2000`, then one frame per event, a comment line every
 * `heartbeatMs` (proxies keep an idle stream open), and the end after the
 * events end or after `maxMs` (the client reconnects, and is authorized
 * again). `stop` is aborted whenever the response ends, for whatever reason:
 * the stream's source lets go of what it holds.
 */
import type { Response } from "express";
import type { EventStream, StreamEvent } from "../ops/operation";

const frame = (e: StreamEvent) => `${e.id ? `id: ${e.id}\n` : ""}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

export async function sendEvents(res: Response, stream: EventStream, stop: AbortController): Promise<void> {
  res.status(200);
  res.setHeader("content-type", "text/event-stream; charset=utf-8");
  res.setHeader("cache-control", "no-cache, no-transform");
  res.setHeader("x-accel-buffering", "no"); // nginx: do not buffer the stream
  res.flushHeaders();
  res.write("retry: 2000\n\n");
  const heartbeat = setInterval(() => res.write(": heartbeat\n\n"), stream.heartbeatMs);
  const lifetime = setTimeout(() => stop.abort(), stream.maxMs);
  res.once("close", () => stop.abort());
  try {
    for await (const e of stream.events) {
      if (res.writableEnded) break;
      res.write(frame(e));
    }
  } finally {
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    stop.abort();
    if (!res.writableEnded) res.end();
  }
}

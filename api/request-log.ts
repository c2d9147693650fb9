/**
 * Request logs: one line per response with the request id, the
 * method, the route template (never the raw URL), the status and the duration.
 * Nothing else of the request or the response is logged — no header, no query,
 * no body, no address: credentials, cookies, `Set-Cookie` and session IDs
 * cannot reach a line. The lines go through the project's logger, so its
 * redaction (core/log.ts) applies as well.
 *
 * Request id: a caller's (or proxy's) `X-Request-Id` is kept when it is a safe
 * opaque token — 8-64 of `[A-Za-z0-9._-]`, not part of a credential or session
 * header of the same request, nothing the redaction table calls a secret —
 * otherwise one is generated. Either way it is echoed as `X-Request-Id`.
 * Probe and scrape requests (`/healthz`, `/readyz`, `/metrics`) that succeed
 * are logged at debug.
 *
 * Duration: from when the request could first have been read. A request that arrives while the
 * event loop is held (a long synchronous step) is only parsed once the loop is free again; a
 * heartbeat every BEAT_MS notes the last time the loop ran, and a request that starts after a
 * missed beat is timed from the moment that beat was due — so `duration_ms` includes the wait in
 * the socket (at most one beat too much), not just the time after the loop came back.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "../core/log";
import { redactText } from "../core/redact";
import { routeTemplate } from "./http";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const CARRIED = ["authorization", "cookie", "x-codesynapse-session", "x-codesynapse-parent-session"] as const;
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

const BEAT_MS = 20;
let lastBeat = Date.now();
/** Set by a late beat until the loop's next check phase: the requests read in between waited since then. */
let heldSince: number | undefined;
let beating = false;

function beat(): void {
  const now = Date.now();
  // Timers run before the loop reads sockets: a late beat marks the requests it is about to read.
  if (now - lastBeat > 2 * BEAT_MS) {
    heldSince = lastBeat + BEAT_MS;
    setImmediate(() => (heldSince = undefined));
  }
  lastBeat = now;
}

/** When a request starting now could first have been read (see the file comment). */
export function arrivedAt(now = Date.now()): number {
  if (!beating) {
    beating = true;
    setInterval(beat, BEAT_MS).unref();
    lastBeat = now;
  }
  if (heldSince !== undefined) return Math.min(heldSince, now);
  return now - lastBeat > 2 * BEAT_MS ? lastBeat + BEAT_MS : now;
}

/** The caller's X-Request-Id when it is safe to log and echo, else undefined. */
export function acceptedRequestId(req: IncomingMessage): string | undefined {
  const v = req.headers["x-request-id"];
  if (typeof v !== "string" || !REQUEST_ID.test(v)) return undefined;
  for (const h of CARRIED) {
    const carried = req.headers[h];
    if (typeof carried === "string" && carried.includes(v)) return undefined;
  }
  return redactText(v).text === v ? v : undefined;
}

export function requestLog(logger: Logger): RequestHandler {
  // One line per response, with the request id as a field of the line: no child logger per
  // request, no serialised request object. Every field is ours — a method the HTTP parser accepts,
  // a route template written in the code, a status, a duration, a request id that passed the
  // redaction table (acceptedRequestId) or was generated — so the per-field redaction passes
  // (censored paths, the table over every string) are left out for these lines; the finished
  // line still gets the logger's last look (core/log.ts `redactLine`), as every line does.
  const out = logger.child({}, { redact: { paths: [] }, formatters: { log: (o: object) => o } });
  return (req, res, next) => {
    const start = arrivedAt();
    const id = acceptedRequestId(req) ?? randomUUID();
    res.setHeader("X-Request-Id", id);
    const done = () => {
      res.removeListener("finish", done);
      res.removeListener("close", done);
      const status = res.statusCode;
      const line = { request_id: id, method: req.method, route: routeTemplate(req), status: res.writableFinished ? status : "aborted", duration_ms: Date.now() - start };
      if (status >= 500) out.error(line, "request failed");
      else if (PROBES.has(line.route) && status < 400) out.debug(line, "request completed");
      else out.info(line, "request completed");
    };
    res.once("finish", done);
    res.once("close", done);
    next();
  };
}

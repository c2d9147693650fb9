/**
 * The HTTP request duration histogram (JOB-9, RET-2): one observation per
 * response, labelled by method, route template and status — never the raw URL,
 * which can carry a session, job or fact id. Every label has a bounded set of
 * values: the route is a template written in the code (every path no route
 * matched is the one value "(unmatched)"), the method one of a fixed list or
 * "other", the status a code this server chose ("aborted" when the client went
 * away before the response was complete).
 */
import type { RequestHandler } from "express";
import { Histogram, type Registry } from "prom-client";
import { routeTemplate } from "./http";

export const HTTP_DURATION_METRIC = "codesynapse_http_request_duration_seconds";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type Labels = "method" | "route" | "status";

function histogram(registry: Registry): Histogram<Labels> {
  // One per registry: a worker's metrics server and an app built twice in a test share it.
  const existing = registry.getSingleMetric(HTTP_DURATION_METRIC) as Histogram<Labels> | undefined;
  return (
    existing ??
    new Histogram({
      name: HTTP_DURATION_METRIC,
      help: "HTTP requests from arrival to the end of the response, per method, route template and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    })
  );
}

export function httpMetrics(registry: Registry): RequestHandler {
  const h = histogram(registry);
  return (req, res, next) => {
    const end = h.startTimer();
    let done = false;
    const observe = () => {
      if (done) return;
      done = true;
      end({ method: METHODS.has(req.method) ? req.method : "other", route: routeTemplate(req), status: res.writableFinished ? String(res.statusCode) : "aborted" });
    };
    res.once("finish", observe);
    res.once("close", observe);
    next();
  };
}

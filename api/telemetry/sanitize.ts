/**
 * The one place that decides what a span may say once it leaves the process
 * (RET-2, docs/observability.md). Every exported span passes `sanitizeSpan`
 * (SanitizingExporter wraps the real exporter), whatever instrumentation
 * made it:
 *
 * - attributes: an allowlist of keys. What passes carries methods, route
 *   templates, statuses, store names, constant query text and our own ids
 *   (tenant, job). Everything else is dropped — raw URLs, paths and query
 *   strings (`url.full`, `url.path`, `url.query`, `http.target`), headers,
 *   user agents, client addresses, and anything a future instrumentation adds:
 *   a session id, an API key, a cookie or a prompt has no allowed key to
 *   travel in. String values that pass are run through the redaction table
 *   (core/redact.ts), as is the span name;
 * - events keep their name and `exception.type` only (an exception's message
 *   and stack can quote input); the status keeps its code, not its message;
 *   links keep their span context only.
 */
import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { redactText } from "../../core/redact";
import { ATTR } from "../../queues/trace-context";

export const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set([
  // HTTP (current and older semantic conventions): method, route template, status, scheme, this server.
  "http.request.method",
  "http.request.method_original",
  "http.response.status_code",
  "http.route",
  "http.method",
  "http.status_code",
  "http.scheme",
  "url.scheme",
  "server.address",
  "server.port",
  "network.protocol.version",
  "network.transport",
  "error.type",
  // express: layer type and its template.
  "express.name",
  "express.type",
  // PostgreSQL and Redis: the store, the database, the operation and constant query text
  // (values travel as parameters, and ioredis is configured to report the command name only).
  "db.system",
  "db.system.name",
  "db.name",
  "db.namespace",
  "db.operation.name",
  "db.query.text",
  "db.statement",
  "db.redis.database_index",
  // Ours.
  ...Object.values(ATTR),
]);

const EVENT_ATTRIBUTES: ReadonlySet<string> = new Set(["exception.type"]);

function clean(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === "string") return redactText(value).text;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? redactText(v).text : v)) as AttributeValue;
  return value;
}

export function sanitizeAttributes(attributes: Attributes, allowed: ReadonlySet<string> = ALLOWED_ATTRIBUTES): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!allowed.has(key)) continue;
    const v = clean(value);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function sanitizeSpan(s: ReadableSpan): ReadableSpan {
  return {
    name: redactText(s.name).text,
    kind: s.kind,
    spanContext: () => s.spanContext(),
    parentSpanContext: s.parentSpanContext,
    startTime: s.startTime,
    endTime: s.endTime,
    status: { code: s.status.code },
    attributes: sanitizeAttributes(s.attributes),
    links: s.links.map((l) => ({ context: l.context })),
    events: s.events.map((e) => ({ name: e.name, time: e.time, attributes: sanitizeAttributes(e.attributes ?? {}, EVENT_ATTRIBUTES) })),
    duration: s.duration,
    ended: s.ended,
    resource: s.resource,
    instrumentationScope: s.instrumentationScope,
    droppedAttributesCount: s.droppedAttributesCount,
    droppedEventsCount: s.droppedEventsCount,
    droppedLinksCount: s.droppedLinksCount,
  };
}

/** Wraps the real exporter: nothing reaches it that has not passed sanitizeSpan. */
export class SanitizingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]): void {
    this.inner.export(spans.map(sanitizeSpan), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

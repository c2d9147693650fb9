/**
 * Tracing's rules that need no process (docs/observability.md): what a span may carry once it is
 * exported (a real tracer provider → SanitizingExporter → the SDK's in-memory exporter), the job
 * row's traceparent format, and when tracing is on.
 */
import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { SanitizingExporter } from "../../api/telemetry/sanitize";
import { traceExporterKind, TracingEnvError } from "../../api/telemetry/tracing-env";
import { contextFromTraceparent, currentTraceparent } from "../../queues/trace-context";

const SESSION = "thread-7f3a-secret-session";
const API_KEY = "csk_abcdefghijklmnopqrstuvwxyz012345";

function exported() {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new SanitizingExporter(memory) })] });
  return { memory, tracer: provider.getTracer("test"), flush: () => provider.forceFlush() };
}

describe("SanitizingExporter", () => {
  it("keeps allowed attributes and our ids, drops URLs, headers, user agents, addresses and unknown keys", async () => {
    const { memory, tracer, flush } = exported();
    const span = tracer.startSpan("GET /api/v1/repos/:repo/session-memory");
    span.setAttributes({
      "http.request.method": "GET",
      "http.route": "/api/v1/repos/:repo/session-memory",
      "http.response.status_code": 200,
      "codesynapse.tenant.id": "org_1",
      "codesynapse.job.id": "job_1",
      "url.full": `http://h/api/v1/repos/r/session-memory?q=${SESSION}`,
      "url.path": `/api/v1/execution/sessions/${SESSION}`,
      "url.query": `q=${SESSION}`,
      "http.target": `/x?session=${SESSION}`,
      "http.request.header.x_codesynapse_session": [SESSION],
      "http.request.header.authorization": [`Bearer ${API_KEY}`],
      "user_agent.original": "curl/8",
      "network.peer.address": "10.0.0.7",
      "client.address": "10.0.0.7",
      "codesynapse.session.id": SESSION,
      "some.future.attribute": SESSION,
    });
    span.end();
    await flush();
    const [s] = memory.getFinishedSpans();
    expect(s!.attributes).toEqual({
      "http.request.method": "GET",
      "http.route": "/api/v1/repos/:repo/session-memory",
      "http.response.status_code": 200,
      "codesynapse.tenant.id": "org_1",
      "codesynapse.job.id": "job_1",
    });
    expect(JSON.stringify(memory.getFinishedSpans().map((x) => ({ ...x, resource: undefined })))).not.toContain(SESSION);
  });

  it("masks secrets in allowed values and in the span name; keeps only the type of an exception and the code of a status", async () => {
    const { memory, tracer, flush } = exported();
    const span = tracer.startSpan(`pg.query:SELECT Bearer ${API_KEY}`);
    span.setAttribute("db.query.text", `select 1 -- password=${"hunter2hunter2"}`);
    span.recordException(new Error(`invalid input syntax: "${SESSION}"`));
    span.setStatus({ code: 2, message: `failed for ${SESSION}` });
    span.end();
    await flush();
    const [s] = memory.getFinishedSpans();
    expect(s!.name).not.toContain(API_KEY);
    expect(s!.attributes["db.query.text"]).not.toContain("hunter2hunter2");
    expect(s!.events).toHaveLength(1);
    expect(s!.events[0]!.attributes).toEqual({ "exception.type": "Error" });
    expect(s!.status).toEqual({ code: 2 });
    expect(JSON.stringify(s!.events) + JSON.stringify(s!.status)).not.toContain(SESSION);
  });

  it("keeps the parent/child chain (span context and parent) intact", async () => {
    const { memory, tracer, flush } = exported();
    const parent = tracer.startSpan("parent");
    const child = tracer.startSpan("child", {}, trace.setSpan(ROOT_CONTEXT, parent));
    child.end();
    parent.end();
    await flush();
    const [c, p] = memory.getFinishedSpans();
    expect(c!.parentSpanContext?.spanId).toBe(p!.spanContext().spanId);
    expect(c!.spanContext().traceId).toBe(p!.spanContext().traceId);
  });
});

describe("the job row's traceparent", () => {
  it("round-trips a span context and refuses anything else", () => {
    const { tracer } = exported();
    const span = tracer.startSpan("submit");
    const tp = currentTraceparent(trace.setSpan(ROOT_CONTEXT, span));
    expect(tp).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    const restored = trace.getSpanContext(contextFromTraceparent(tp))!;
    expect(restored).toMatchObject({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId, traceFlags: 1, isRemote: true });
    for (const bad of [null, "", "junk", `01-${"a".repeat(32)}-${"b".repeat(16)}-01`, `00-${"0".repeat(32)}-${"b".repeat(16)}-01`, `00-${"A".repeat(32)}-${"b".repeat(16)}-01`, `${tp} `]) {
      expect(contextFromTraceparent(bad)).toBe(ROOT_CONTEXT);
    }
  });

  it("is null when no span is active (tracing off)", () => {
    expect(currentTraceparent(context.active())).toBeNull();
  });
});

describe("traceExporterKind", () => {
  it("is off by default and on only when the OTEL_* variables ask for it", () => {
    expect(traceExporterKind({})).toBeUndefined();
    expect(traceExporterKind({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("otlp");
    expect(traceExporterKind({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe("otlp");
    expect(traceExporterKind({ OTEL_TRACES_EXPORTER: "otlp" })).toBe("otlp");
    expect(traceExporterKind({ OTEL_TRACES_EXPORTER: "console" })).toBe("console");
    expect(traceExporterKind({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBeUndefined();
    expect(traceExporterKind({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" })).toBeUndefined();
    expect(() => traceExporterKind({ OTEL_TRACES_EXPORTER: "jaeger" })).toThrow(TracingEnvError);
    expect(() => traceExporterKind({ OTEL_TRACES_EXPORTER: "jaeger" })).toThrow(/OTEL_TRACES_EXPORTER/);
  });
});

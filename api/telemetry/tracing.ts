/**
 * OpenTelemetry tracing for a server process (docs/observability.md). Loaded
 * only when tracing is on (./tracing-env.ts decides, bin/codesynapse.js
 * imports this module), before the application, so the instrumentations see
 * express, pg and ioredis being imported.
 *
 * - NodeSDK with the http, express, pg and ioredis instrumentations. pg and
 *   ioredis spans only inside a trace (`requireParentSpan`): the pools' polling
 *   and BullMQ's blocking reads start no traces of their own; probe and scrape
 *   requests (/healthz, /readyz, /metrics) are not traced.
 * - The exporter comes from the standard variables: OTEL_TRACES_EXPORTER
 *   (`otlp` or `console`), OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL
 *   (`http/protobuf` by default, `http/json`, `grpc`), the endpoint, headers and
 *   timeout variables the OTLP exporters read themselves, OTEL_BSP_* for the
 *   batch, OTEL_TRACES_SAMPLER(_ARG), OTEL_SERVICE_NAME (default
 *   `codesynapse`), OTEL_RESOURCE_ATTRIBUTES. It is wrapped by
 *   SanitizingExporter (./sanitize.ts): the one place attributes are filtered.
 * - Only traces: the SDK's own metrics and logs exporters stay off (metrics are
 *   Prometheus, logs are pino on stdout).
 */
import { createRequire } from "node:module";
import { envDetector, hostDetector } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { ConsoleSpanExporter, type SpanExporter } from "@opentelemetry/sdk-trace";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { onTelemetryFlush } from "./flush";
import { SanitizingExporter } from "./sanitize";
import { INSTRUMENTED_MODULES, traceExporterKind } from "./tracing-env";

const UNTRACED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

async function otlpExporter(env: NodeJS.ProcessEnv): Promise<SpanExporter> {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
  switch (protocol) {
    case "http/protobuf":
      return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
    case "http/json":
      return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
    case "grpc":
      return new (await import("@opentelemetry/exporter-trace-otlp-grpc")).OTLPTraceExporter();
    default:
      throw new Error("Invalid configuration:\n  OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf, http/json or grpc");
  }
}

export function instrumentations() {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? "").split("?")[0]!),
      requireParentforOutgoingSpans: true,
    }),
    // Route handlers only: a span per middleware layer (path guard, CSRF, body parser, …) is noise.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
  ];
}

/**
 * Starts tracing for this process; `exporter` replaces the one from the environment (tests).
 * Returns the SDK's shutdown, which the CLI's exit path also reaches through flushTelemetry().
 */
export async function startTracing(opts: { env?: NodeJS.ProcessEnv; exporter?: SpanExporter } = {}): Promise<() => Promise<void>> {
  const env = opts.env ?? process.env;
  const inner = opts.exporter ?? (traceExporterKind(env) === "console" ? new ConsoleSpanExporter() : await otlpExporter(env));
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: "codesynapse" }),
    traceExporter: new SanitizingExporter(inner),
    instrumentations: instrumentations(),
    // No process detector: it reports the command line.
    resourceDetectors: [envDetector, hostDetector],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // The instrumented packages are CommonJS and are patched in place when `require` loads them. An
  // ESM import of one goes through import-in-the-middle's hook, which did not reach the express
  // instrumentation (no route names, no handler spans) once nothing else required express — the
  // operators' BullMQ board used to, before it loaded on first use. Requiring them here, with
  // tracing on only, patches the one exports object every later import shares.
  const require = createRequire(import.meta.url);
  for (const name of INSTRUMENTED_MODULES) {
    try {
      require(name);
    } catch {
      // Not resolvable from here (a layout that does not hoist pg-pool): an ESM import is then the only way in.
    }
  }
  const shutdown = () => sdk.shutdown();
  onTelemetryFlush(shutdown);
  return shutdown;
}

/**
 * Whether this process traces, decided from the standard OTEL_* variables
 * before anything of OpenTelemetry's SDK is loaded (bin/codesynapse.js): with
 * tracing off the SDK, its exporters and the loader hook are never imported,
 * so they cost no memory. No imports here on purpose.
 *
 * Off by default. On when OTEL_TRACES_EXPORTER names `otlp` or `console`, or
 * when it is unset and an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).
 * OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off.
 */

export type TraceExporterKind = "otlp" | "console";

/** The commands that trace: the long-running servers (never `mcp`, whose stdout is the protocol, nor the admin CLI). */
export const TRACED_COMMANDS: readonly string[] = ["start", "serve", "worker"];

/** The packages the instrumentations patch; import-in-the-middle wraps only these ESM imports. */
export const INSTRUMENTED_MODULES: readonly string[] = ["express", "pg", "pg-pool", "ioredis"];

export class TracingEnvError extends Error {}

export function traceExporterKind(env: NodeJS.ProcessEnv): TraceExporterKind | undefined {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return undefined;
  const names = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => n !== "otlp" && n !== "console" && n !== "none");
  if (unknown.length > 0) throw new TracingEnvError("Invalid configuration:\n  OTEL_TRACES_EXPORTER: must be otlp, console or none");
  if (names.includes("none")) return undefined;
  if (names.includes("otlp")) return "otlp";
  if (names.includes("console")) return "console";
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? "otlp" : undefined;
}

#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx, so no build step is needed.
import { register as registerLoader } from "node:module";
import { register } from "tsx/esm/api";

register();
// Tracing (docs/observability.md) only when the OTEL_* variables ask for it, and only for the
// server commands. Off, nothing of OpenTelemetry's SDK is loaded. On, import-in-the-middle's
// loader hook is registered before the application is imported, so the ESM imports of express,
// pg and ioredis reach the instrumentations (require-in-the-middle alone misses them).
const env = await import("../api/telemetry/tracing-env.ts");
let tracing;
try {
  tracing = env.TRACED_COMMANDS.includes(process.argv[2] ?? "") ? env.traceExporterKind(process.env) : undefined;
} catch (err) {
  console.error(err instanceof env.TracingEnvError ? err.message : err);
  process.exit(2);
}
if (tracing) {
  registerLoader("import-in-the-middle/hook.mjs", import.meta.url, { data: { include: [...env.INSTRUMENTED_MODULES] } });
  const { startTracing } = await import("../api/telemetry/tracing.ts");
  await startTracing().catch((err) => {
    console.error(`tracing did not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  });
}
await import("../api/cli/main.ts");

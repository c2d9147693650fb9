#!/usr/bin/env node
// Launcher. A deployment runs the JavaScript `npm run build` wrote to dist/ (the
// image holds dist/ and no TypeScript). A checkout runs dist/ too when it was built
// from the sources beside it (dist/cli.js is newer than every TypeScript source:
// the quick start, since Node starts plain JavaScript far faster than tsx compiles
// TypeScript); after an edit, or without a build, it runs the sources through tsx
// (a dev dependency), so a forgotten old dist/ never runs in place of the code beside
// it. CODESYNAPSE_RUN=dist or =sources chooses. See docs/deployment.md.
//
// Tracing (docs/observability.md) only when the OTEL_* variables ask for it, and only for the
// server commands. Off, nothing of OpenTelemetry's SDK is loaded. On, import-in-the-middle's
// loader hook is registered before the application is imported, so the ESM imports of express,
// pg and ioredis reach the instrumentations (require-in-the-middle alone misses them).
//
// The Node check is the only static import: everything else, node:module's `register` included
// (Node 20.6+), is imported after it, so an unsupported Node gets its one line and nothing else.
import "./supported-node.js";

const { existsSync, readdirSync, statSync } = await import("node:fs");
const { register: registerLoader } = await import("node:module");

const SOURCE_DIRS = ["api", "core", "db", "main", "ops", "queues", "workers", "clients/typescript/src"];

/** Whether dist/ holds a build of the sources beside it: no TypeScript source is newer than dist/cli.js. */
function distIsFresh() {
  const root = new URL("../", import.meta.url);
  let built;
  try {
    built = statSync(new URL("dist/cli.js", root)).mtimeMs;
  } catch {
    return false;
  }
  const newer = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((e) =>
      e.isDirectory() ? newer(new URL(`${e.name}/`, dir)) : e.name.endsWith(".ts") && statSync(new URL(e.name, dir)).mtimeMs > built,
    );
  };
  return !SOURCE_DIRS.some((d) => newer(new URL(`${d}/`, root)));
}

/** The modules to run: the TypeScript sources through tsx, or null when dist/ is to run. */
async function sources() {
  const at = (p) => new URL(`../${p}`, import.meta.url);
  const run = process.env.CODESYNAPSE_RUN;
  if (run === "dist" || !existsSync(at("main/cli.ts"))) return null;
  if (run !== "sources" && distIsFresh()) return null;
  try {
    const { register } = await import("tsx/esm/api");
    register();
  } catch {
    return null;
  }
  return { env: at("api/telemetry/tracing-env.ts"), tracing: at("api/telemetry/tracing.ts"), cli: at("main/cli.ts") };
}

function built() {
  const at = (p) => new URL(`../dist/${p}`, import.meta.url);
  if (!existsSync(at("cli.js"))) {
    console.error("codesynapse: dist/cli.js is missing; run `npm run build` (or `npm ci` for the dev dependencies that run the sources)");
    process.exit(1);
  }
  return { env: at("tracing-env.js"), tracing: at("tracing.js"), cli: at("cli.js") };
}

/** Imports one of our modules; a package it needs that is not installed (a failed or missing `npm install`) is one line, not a stack. */
async function load(href) {
  try {
    return await import(href);
  } catch (err) {
    const missing = err?.code === "ERR_MODULE_NOT_FOUND" && /Cannot find package '([^']+)'/.exec(String(err.message))?.[1];
    if (!missing) throw err;
    console.error(`codesynapse: the package ${missing} is not installed; run \`npm install\` (on Node.js 24: \`sh scripts/node.sh npm install\`)`);
    process.exit(1);
  }
}

const modules = (await sources()) ?? built();
const env = await load(modules.env.href);
let tracing;
try {
  tracing = env.TRACED_COMMANDS.includes(process.argv[2] ?? "") ? env.traceExporterKind(process.env) : undefined;
} catch (err) {
  console.error(err instanceof env.TracingEnvError ? err.message : err);
  process.exit(2);
}
if (tracing) {
  registerLoader("import-in-the-middle/hook.mjs", import.meta.url, { data: { include: [...env.INSTRUMENTED_MODULES] } });
  const { startTracing } = await load(modules.tracing.href);
  await startTracing().catch((err) => {
    console.error(`tracing did not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  });
}
await load(modules.cli.href);

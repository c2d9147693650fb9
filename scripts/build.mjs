#!/usr/bin/env node
/**
 * `npm run build`: bundles the TypeScript into dist/ with esbuild, so a
 * deployment runs plain JavaScript on Node (no tsx, no type stripping).
 *
 * Why a bundler and not tsc: the sources import each other without file
 * extensions (`from "../runtime"`), which Node's ESM loader does not resolve;
 * esbuild resolves them at build time. Only our own code is bundled: every
 * package under node_modules stays an external import (`packages: "external"`),
 * so native and optional dependencies, and packages that load files beside
 * themselves at run time (PGlite's wasm and data bundle, secretlint's rules),
 * load from node_modules exactly as in development. The one exception: our own
 * workspace packages (clients/*, such as @codesynapse/client, which the stdio
 * forwarder uses) are TypeScript sources, so they are bundled like our code.
 *
 * Entry points: dist/cli.js (main/cli.ts: every command: start, serve, worker, mcp,
 * migrate, admin), dist/healthcheck.js (the container HEALTHCHECK), and dist/tracing-env.js
 * and dist/tracing.js, which the launcher loads first when tracing is on. Code splitting
 * keeps lazily imported modules (the stdio MCP forwarder) in their own chunks,
 * loaded only when their command runs, as in the sources.
 *
 * It also puts the embedded database's cluster template in DIR/pglite-template/
 * (scripts/pglite-template.mjs), so a fresh data directory never runs initdb in the server.
 *
 *   node scripts/build.mjs [--outdir DIR]   (default: dist)
 */
// First: refuse an unsupported Node.js before the build starts (`npm start` runs this first). It is
// the only static import: the rest is imported after it, so neither a Node too old for them nor a
// failed install (no esbuild) gets in the way of its one line.
import "../bin/supported-node.js";

const { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } = await import("node:fs");
const { setTimeout: sleep } = await import("node:timers/promises");
const { default: path } = await import("node:path");
const { parseArgs } = await import("node:util");
const { build } = await import("esbuild").catch((err) => {
  if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
  console.error("codesynapse: esbuild is not installed; run `npm install` (on Node.js 24: `sh scripts/node.sh npm install`)");
  process.exit(1);
});
const { ensureTemplate } = await import("./pglite-template.mjs");

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { outdir: { type: "string" } } });
const outdir = path.resolve(root, values.outdir ?? "dist");

/**
 * One build of an output directory at a time: a second `npm start` in the same checkout (or a
 * build beside a starting server) would otherwise remove the files the first is writing. The lock
 * is a file made exclusively, naming its holder's pid; a holder that died leaves it to be taken.
 * A build that had to wait and finds the directory built after it began waiting uses that build.
 */
async function takeLock(file) {
  const began = Date.now();
  for (;;) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return began;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(file, "utf8"));
      if (holder > 0) process.kill(holder, 0);
    } catch (err) {
      if (err.code === "ESRCH" || holder === 0) rmSync(file, { force: true }); // its holder is gone
    }
    await sleep(100);
  }
}

const lock = `${outdir}.build-lock`;
const waitingSince = await takeLock(lock);
process.on("exit", () => rmSync(lock, { force: true }));
const builtMeanwhile = (() => {
  try {
    return statSync(path.join(outdir, "cli.js")).mtimeMs >= waitingSince && statSync(path.join(outdir, "pglite-template")).isDirectory();
  } catch {
    return false;
  }
})();
if (builtMeanwhile) {
  process.stdout.write(`${path.relative(root, outdir) || "."}/ was built by another build meanwhile; using it\n`);
  process.exit(0);
}

rmSync(outdir, { recursive: true, force: true });
/** Our workspace packages (clients/*) are TypeScript sources: bundle them instead of leaving them external. */
const workspaces = {
  name: "workspaces",
  setup(b) {
    b.onResolve({ filter: /^@codesynapse\/client$/ }, () => ({ path: path.join(root, "clients/typescript/src/index.ts") }));
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: {
    cli: "main/cli.ts",
    healthcheck: "scripts/healthcheck.ts",
    // The launcher reads these before the CLI, so the tracing hook precedes the application (bin/codesynapse.js).
    "tracing-env": "api/telemetry/tracing-env.ts",
    tracing: "api/telemetry/tracing.ts",
    // The sentence model's inference thread is started from its own file (db/embedding/sentence-model.ts).
    "onnx-worker": "db/embedding/onnx-worker.ts",
  },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [workspaces],
  sourcemap: true,
  // Chunk names carry a content hash; the entry names stay fixed for bin/ and the Dockerfile.
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith(".js"))
  .reduce((n, [, o]) => n + o.bytes, 0);
const template = await ensureTemplate(outdir);
process.stdout.write(
  `built ${path.relative(root, outdir) || "."}/ (${Object.keys(result.metafile.inputs).length} modules, ${(bytes / 1024).toFixed(0)} KiB of JavaScript; ${path.relative(outdir, template)})\n`,
);

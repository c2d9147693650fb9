// The test log must close on vitest's counts alone: a line of another test
// runner's closing shape (printed by a tool a test runs — Schemathesis's
// pytest-style `==== 2 warnings in 33 s ====`, a `go test` or `cargo test`
// result) is read by log scanners as that runner's verdict, and one with
// warnings only reads as "no test ran". Exits 1 naming each such line.
import { readFileSync } from "node:fs";

const SHAPES = [
  ["pytest", /^=+ .*\bin \d+(\.\d+)?s\b.* =+$/],
  ["go test", /^(ok|FAIL)\s+\S+\s+\d+(\.\d+)?s$/],
  ["cargo test", /^test result: (ok|FAILED)\./],
  ["node --test", /^(#|ℹ) (tests|pass|fail) \d+$/],
  ["Maven Surefire", /^(\[\w+\] )?Tests run: \d+, Failures: \d+/],
];

const file = process.argv[2];
// The log is vitest's coloured output: its colour codes (ESC [ … m) are dropped first.
// eslint-disable-next-line no-control-regex
const lines = readFileSync(file, "utf8").replace(/\x1b\[[0-9;]*m/g, "").split("\n");
const found = [];
lines.forEach((line, i) => {
  for (const [runner, shape] of SHAPES) if (shape.test(line.trim())) found.push(`${file}:${i + 1}: reads as a ${runner} closing line: ${line.trim().slice(0, 120)}`);
});
if (found.length) {
  console.error(`log-check: ${found.length} line(s) of another runner's closing shape in the test log; print them reworded:\n${found.join("\n")}`);
  process.exit(1);
}

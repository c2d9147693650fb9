/**
 * Unified diffs (WRK-5) for edits that keep every line in place (each changed
 * line is replaced by exactly one line — what the local fix strategy makes):
 * hunks with 3 lines of context, merged when they touch, `git apply` format
 * (`diff --git a/… b/…`), with the "No newline at end of file" marker.
 */
const CONTEXT = 3;

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  const finalNewline = text.endsWith("\n");
  const lines = text.split("\n");
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

export function unifiedDiffInPlace(file: string, before: string, after: string): string {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.lines.length !== b.lines.length || a.finalNewline !== b.finalNewline) throw new Error("unifiedDiffInPlace: the edit must keep the line structure");
  const changed: number[] = [];
  a.lines.forEach((l, i) => {
    if (l !== b.lines[i]) changed.push(i);
  });
  if (changed.length === 0) return "";
  const hunks: Array<[number, number]> = [];
  for (const i of changed) {
    const start = Math.max(0, i - CONTEXT);
    const end = Math.min(a.lines.length - 1, i + CONTEXT);
    const last = hunks.at(-1);
    if (last && start <= last[1] + 1) last[1] = end;
    else hunks.push([start, end]);
  }
  const out = [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`];
  const lastIndex = a.lines.length - 1;
  const noNl = (i: number) => (i === lastIndex && !a.finalNewline ? ["\\ No newline at end of file"] : []);
  for (const [s, e] of hunks) {
    const n = e - s + 1;
    out.push(`@@ -${s + 1},${n} +${s + 1},${n} @@`);
    for (let i = s; i <= e; i++) {
      if (a.lines[i] === b.lines[i]) out.push(` ${a.lines[i]}`, ...noNl(i));
      else out.push(`-${a.lines[i]}`, ...noNl(i), `+${b.lines[i]}`, ...noNl(i));
    }
  }
  return `${out.join("\n")}\n`;
}

/** A light shape check of a unified diff an LLM returned: file headers and at least one hunk. */
export function looksLikeUnifiedDiff(text: string): boolean {
  return /^--- (a\/|\/dev\/null)\S*/m.test(text) && /^\+\+\+ (b\/|\/dev\/null)\S*/m.test(text) && /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(text);
}

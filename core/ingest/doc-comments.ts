/**
 * What a symbol's own documentation says, for the code graph's text (recall by meaning): the doc
 * or line comment right above a declaration (`/** … *\/`, `//`, `///`, `#`; decorator lines
 * between are skipped), a Python docstring right below it, and a file's leading comment or module
 * docstring. Input: the file's lines and the symbol's 1-based line. Output: the first sentences,
 * tags (`@param …`) and comment marks removed, whitespace collapsed, at most DOC_MAX_CHARS
 * characters (cut at a sentence end when one is near, else at a word) — or undefined when there
 * is no comment or it says nothing (a licence header, a lint directive, a separator line).
 */

/** Characters of a doc text kept on its graph node (a node name holds at most 256). */
export const DOC_MAX_CHARS = 200;

const BLOCK_END = /\*\/\s*$/;
const LINE_MARK: Record<string, RegExp> = {
  python: /^#+\s?/,
  default: /^\/\/+!?\s?/,
};

/** Comment text → the words a reader would quote; undefined when nothing useful is left. */
export function cleanDoc(raw: string): string | undefined {
  const lines = raw
    .split("\n")
    .map((l) => l.replace(/^\s*(\/\*\*?|\*\/|\*(?!\/))?\s?/, "").replace(/\*\/\s*$/, "").trim())
    .filter((l) => l.length > 0);
  const kept: string[] = [];
  for (const l of lines) {
    // Tags (@param, @returns …) and docstring sections (Args:, Returns: …) follow the prose.
    if (l.startsWith("@") || /^(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Attributes|Notes?):/.test(l)) break;
    kept.push(l);
  }
  let text = kept.join(" ").replace(/\s+/g, " ").trim();
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  if (/^(eslint|prettier|ts-|@ts-|istanbul|c8|noqa|type:|pylint|SPDX|Copyright|\(c\))/i.test(text)) return undefined;
  if (text.length > DOC_MAX_CHARS) {
    const head = text.slice(0, DOC_MAX_CHARS);
    const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf("; "), head.lastIndexOf(": "));
    const word = head.lastIndexOf(" ");
    text = sentence >= DOC_MAX_CHARS / 2 ? head.slice(0, sentence + 1) : head.slice(0, word > 0 ? word : DOC_MAX_CHARS);
  }
  return text;
}

/** The comment block that ends on line index `end` (0-based), or undefined. */
function commentEndingAt(lines: string[], end: number, language: string): string | undefined {
  const last = lines[end]?.trim() ?? "";
  if (BLOCK_END.test(last)) {
    for (let i = end; i >= 0 && end - i < 200; i--) {
      if (/^\s*\/\*/.test(lines[i]!)) return lines.slice(i, end + 1).join("\n");
    }
    return undefined;
  }
  const mark = LINE_MARK[language] ?? LINE_MARK.default!;
  if (!mark.test(last)) return undefined;
  let i = end;
  while (i - 1 >= 0 && mark.test(lines[i - 1]!.trim()) && end - i < 50) i--;
  return lines
    .slice(i, end + 1)
    .map((l) => l.trim().replace(mark, ""))
    .join("\n");
}

/** A Python docstring opening on line index `start` or just after (the body's first statement). */
function docstringFrom(lines: string[], start: number): string | undefined {
  for (let i = start; i < Math.min(lines.length, start + 8); i++) {
    const t = lines[i]!.trim();
    if (t.length === 0) continue;
    const q = t.startsWith('"""') ? '"""' : t.startsWith("'''") ? "'''" : null;
    if (!q) return undefined;
    const rest = t.slice(3);
    if (rest.includes(q)) return rest.slice(0, rest.indexOf(q));
    const out = [rest];
    for (let j = i + 1; j < Math.min(lines.length, i + 60); j++) {
      const l = lines[j]!;
      if (l.includes(q)) return [...out, l.slice(0, l.indexOf(q))].join("\n");
      out.push(l);
    }
    return undefined;
  }
  return undefined;
}

/** The documentation of the declaration on `line` (1-based). */
export function symbolDoc(lines: string[], line: number, language: string): string | undefined {
  let above = line - 2;
  while (above >= 0 && /^\s*@/.test(lines[above]!)) above--; // decorators, annotations
  const comment = above >= 0 ? commentEndingAt(lines, above, language) : undefined;
  if (comment !== undefined) return cleanDoc(comment);
  if (language === "python") {
    // The body starts after the line that closes the signature.
    let i = line - 1;
    while (i < lines.length && i < line + 20 && !/:\s*(#.*)?$/.test(lines[i]!)) i++;
    const doc = docstringFrom(lines, i + 1);
    return doc === undefined ? undefined : cleanDoc(doc);
  }
  return undefined;
}

/** The file's leading comment (after a shebang and blank lines) or module docstring. */
export function fileDoc(lines: string[], language: string): string | undefined {
  let i = 0;
  while (i < lines.length && (lines[i]!.trim() === "" || lines[i]!.startsWith("#!") || /^["']use strict["'];?$/.test(lines[i]!.trim()))) i++;
  if (i >= lines.length) return undefined;
  if (language === "python") {
    const doc = docstringFrom(lines, i);
    if (doc !== undefined) return cleanDoc(doc);
  }
  const first = lines[i]!.trim();
  if (first.startsWith("/*")) {
    for (let j = i; j < Math.min(lines.length, i + 200); j++) if (BLOCK_END.test(lines[j]!.trim())) return cleanDoc(lines.slice(i, j + 1).join("\n"));
    return undefined;
  }
  const mark = LINE_MARK[language] ?? LINE_MARK.default!;
  if (!mark.test(first)) return undefined;
  let j = i;
  while (j + 1 < lines.length && mark.test(lines[j + 1]!.trim())) j++;
  return commentEndingAt(lines, j, language) === undefined ? undefined : cleanDoc(commentEndingAt(lines, j, language)!);
}

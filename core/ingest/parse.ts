/**
 * What ingest reads from one source file (`ParsedFile`), and the first way it
 * had of reading it, kept as the baseline the ingest bench compares with:
 * line-oriented regular expressions (TypeScript/JavaScript, Python, Go and
 * Java). Ingest itself parses with tree-sitter (./syntax.ts). The regex reader is not a
 * parser: it finds declarations at the start of a line, tracks class bodies by
 * brace depth (indentation for Python) to tell methods from functions, and
 * ignores comments only where a line starts with one. At most
 * INGEST_MAX_SYMBOLS_PER_FILE symbols per file.
 */
import { INGEST_MAX_SYMBOLS_PER_FILE } from "../limits";

export type SymbolKind = "function" | "class" | "method" | "interface" | "module";

export interface CodeSymbol {
  kind: SymbolKind;
  name: string;
  /** The enclosing class for methods. */
  parent?: string;
  line: number;
  /** What the symbol's doc comment (or Python docstring) says, cleaned and bounded (./doc-comments.ts). */
  doc?: string;
}

export interface ParsedFile {
  language: string;
  symbols: CodeSymbol[];
  /** Import specifiers as written (resolved later, against the snapshot's files). */
  imports: string[];
  /** Calls by simple name, attributed to the enclosing symbol (resolved later, against the snapshot's symbols). */
  calls?: CodeUse[];
  /** Type references by simple name, attributed the same way. */
  references?: CodeUse[];
  /** The package the file declares (Go `package`, Java `package`). */
  module?: string;
  /** What the file's leading comment or module docstring says (./doc-comments.ts). */
  doc?: string;
}

export interface CodeUse {
  /** The enclosing symbol, qualified within the file (`Class.method`), or null at file level. */
  from: string | null;
  name: string;
}

const LANG_BY_EXT: Record<string, string> = {
  ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript",
  js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  py: "python", go: "go", java: "java",
};

export function languageOf(file: string): string | null {
  const m = /\.([A-Za-z0-9]+)$/.exec(file);
  return (m && LANG_BY_EXT[m[1]!.toLowerCase()]) ?? null;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "new", "else", "do", "try", "throw", "typeof", "await", "yield", "super", "this", "synchronized"]);

/** Brace depth change of a line, ignoring braces inside simple string literals and after `//`. */
function braceDelta(line: string): number {
  const s = line.replace(/\/\/.*$/, "").replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "");
  let d = 0;
  for (const ch of s) if (ch === "{") d++;
  else if (ch === "}") d--;
  return d;
}

interface BraceRules {
  classRe: RegExp;
  interfaceRe?: RegExp;
  functionRes: RegExp[];
  methodRe: RegExp;
  importRes: RegExp[];
}

const TS_RULES: BraceRules = {
  classRe: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  interfaceRe: /^\s*(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/,
  functionRes: [
    /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
    /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:<[^>]*>\s*)?\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
  ],
  methodRe: /^\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?\s*(#?[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]*\)?\s*(?::\s*[^{;=]+)?\s*\{/,
  importRes: [
    /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?["']([^"']+)["']/,
    /\brequire\(\s*["']([^"']+)["']\s*\)/,
    /\bimport\(\s*["']([^"']+)["']\s*\)/,
  ],
};

const JAVA_RULES: BraceRules = {
  classRe: /^\s*(?:(?:public|private|protected|abstract|final|static|sealed|non-sealed|strictfp)\s+)*(?:class|enum|record)\s+([A-Za-z_]\w*)/,
  interfaceRe: /^\s*(?:(?:public|private|protected|abstract|static|sealed)\s+)*(?:interface|@interface)\s+([A-Za-z_]\w*)/,
  functionRes: [],
  methodRe: /^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default|strictfp)\s+)*(?:<[^>]+>\s+)?(?:[\w$.]+(?:<[^()]*>)?(?:\[\])*\s+)?([A-Za-z_$][\w$]*)\s*\([^;]*$/,
  importRes: [/^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;/],
};

function parseBraced(lines: string[], rules: BraceRules, symbols: CodeSymbol[], imports: string[]): void {
  let depth = 0;
  // `opened`: the class body's brace was seen (it may sit on the next line).
  const classes: Array<{ name: string; depth: number; opened: boolean }> = [];
  let inBlockComment = false;
  lines.forEach((raw, i) => {
    const line = raw;
    if (inBlockComment) {
      if (line.includes("*/")) inBlockComment = false;
      return;
    }
    const trimmed = line.trimStart();
    if (trimmed.startsWith("/*")) {
      if (!trimmed.includes("*/")) inBlockComment = true;
      return;
    }
    if (trimmed.startsWith("//") || trimmed.startsWith("*")) return;
    for (const re of rules.importRes) {
      const m = re.exec(line);
      if (m) imports.push(m[1]!);
    }
    for (const c of classes) if (depth > c.depth) c.opened = true;
    while (classes.length > 0 && classes.at(-1)!.opened && depth <= classes.at(-1)!.depth) classes.pop();
    const inClassBody = classes.length > 0 && depth === classes.at(-1)!.depth + 1;
    const lineNo = i + 1;
    let m: RegExpExecArray | null;
    if ((m = rules.classRe.exec(line))) {
      symbols.push({ kind: "class", name: m[1]!, line: lineNo, ...(inClassBody ? { parent: classes.at(-1)!.name } : {}) });
      classes.push({ name: m[1]!, depth, opened: false });
    } else if (rules.interfaceRe && (m = rules.interfaceRe.exec(line))) {
      symbols.push({ kind: "interface", name: m[1]!, line: lineNo });
      classes.push({ name: m[1]!, depth, opened: false });
    } else if (inClassBody && (m = rules.methodRe.exec(line)) && !KEYWORDS.has(m[1]!)) {
      symbols.push({ kind: "method", name: m[1]!, parent: classes.at(-1)!.name, line: lineNo });
    } else if (classes.length === 0 || !inClassBody) {
      for (const re of rules.functionRes) {
        if ((m = re.exec(line)) && classes.length === 0 && depth === 0) {
          symbols.push({ kind: "function", name: m[1]!, line: lineNo });
          break;
        }
      }
    }
    depth = Math.max(0, depth + braceDelta(line));
  });
}

function parsePython(lines: string[], symbols: CodeSymbol[], imports: string[]): void {
  const classes: Array<{ name: string; indent: number }> = [];
  lines.forEach((line, i) => {
    if (/^\s*(#|$)/.test(line)) return;
    const indent = /^\s*/.exec(line)![0].replace(/\t/g, "    ").length;
    while (classes.length > 0 && indent <= classes.at(-1)!.indent) classes.pop();
    let m: RegExpExecArray | null;
    if ((m = /^\s*from\s+([.\w]+)\s+import\b/.exec(line))) imports.push(m[1]!);
    else if ((m = /^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/.exec(line))) for (const part of m[1]!.split(",")) imports.push(part.trim());
    if ((m = /^\s*class\s+([A-Za-z_]\w*)/.exec(line))) {
      symbols.push({ kind: "class", name: m[1]!, line: i + 1, ...(classes.length > 0 ? { parent: classes.at(-1)!.name } : {}) });
      classes.push({ name: m[1]!, indent });
    } else if ((m = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(line))) {
      const owner = classes.at(-1);
      if (owner && indent > owner.indent) symbols.push({ kind: "method", name: m[1]!, parent: owner.name, line: i + 1 });
      else if (indent === 0) symbols.push({ kind: "function", name: m[1]!, line: i + 1 });
    }
  });
}

function parseGo(lines: string[], symbols: CodeSymbol[], imports: string[]): void {
  let inImportBlock = false;
  lines.forEach((line, i) => {
    let m: RegExpExecArray | null;
    if (inImportBlock) {
      if (/^\s*\)/.test(line)) inImportBlock = false;
      else if ((m = /^\s*(?:[\w.]+\s+)?"([^"]+)"/.exec(line))) imports.push(m[1]!);
      return;
    }
    if (/^import\s*\(/.test(line)) {
      inImportBlock = true;
      return;
    }
    if ((m = /^import\s+(?:[\w.]+\s+)?"([^"]+)"/.exec(line))) imports.push(m[1]!);
    else if ((m = /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+(struct|interface)\b/.exec(line))) symbols.push({ kind: m[2] === "struct" ? "class" : "interface", name: m[1]!, line: i + 1 });
    else if ((m = /^func\s+\(\s*(?:\w+\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)\s*[[(]/.exec(line))) symbols.push({ kind: "method", name: m[2]!, parent: m[1]!, line: i + 1 });
    else if ((m = /^func\s+([A-Za-z_]\w*)\s*[[(]/.exec(line))) symbols.push({ kind: "function", name: m[1]!, line: i + 1 });
  });
}

export function parseSource(file: string, text: string): ParsedFile | null {
  const language = languageOf(file);
  if (!language) return null;
  const lines = text.split(/\r?\n/);
  const symbols: CodeSymbol[] = [];
  const imports: string[] = [];
  if (language === "typescript" || language === "javascript") parseBraced(lines, TS_RULES, symbols, imports);
  else if (language === "java") parseBraced(lines, JAVA_RULES, symbols, imports);
  else if (language === "python") parsePython(lines, symbols, imports);
  else parseGo(lines, symbols, imports);
  return { language, symbols: symbols.slice(0, INGEST_MAX_SYMBOLS_PER_FILE), imports: [...new Set(imports)].slice(0, INGEST_MAX_SYMBOLS_PER_FILE) };
}

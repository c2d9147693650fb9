/**
 * Symbols, imports, calls and references of one source file from its
 * tree-sitter syntax tree (WRK-2): TypeScript/TSX, JavaScript, Python, Go,
 * Java and Rust. The per-language meaning of nodes is ./syntax-rules.ts; this
 * file reads the tree (only nodes of a type the language's handlers name are
 * taken out of the runtime, in document order; no recursion, so a deeply
 * nested file cannot overflow the stack) and bounds what it keeps: at most INGEST_MAX_SYMBOLS_PER_FILE
 * symbols and imports, INGEST_MAX_USES_PER_FILE calls and references, each
 * distinct. Grammars load on first use (./grammars.ts).
 */
import type { Node } from "web-tree-sitter";
import { INGEST_MAX_SYMBOLS_PER_FILE, INGEST_MAX_USES_PER_FILE } from "../limits";
import { fileDoc, symbolDoc } from "./doc-comments";
import { parserFor, type Grammar } from "./grammars";
import type { CodeSymbol, CodeUse, ParsedFile } from "./parse";
import { visitGo, visitJava, visitPython, visitRust, visitTypeScript, type Scope, type Visitor } from "./syntax-rules";

/** Bumped when the rules change what a file yields: cached parses of another version are parsed again (2: doc comments). */
export const SYNTAX_PARSER = "tree-sitter/2";

const BY_EXT: Record<string, { grammar: Grammar; language: string; visit: Visitor }> = {};
const add = (exts: string[], grammar: Grammar, language: string, visit: Visitor) => {
  for (const e of exts) BY_EXT[e] = { grammar, language, visit };
};
add(["ts", "mts", "cts"], "typescript", "typescript", visitTypeScript);
add(["tsx"], "tsx", "typescript", visitTypeScript);
add(["js", "jsx", "mjs", "cjs"], "javascript", "javascript", visitTypeScript);
add(["py", "pyi"], "python", "python", visitPython);
add(["go"], "go", "go", visitGo);
add(["java"], "java", "java", visitJava);
add(["rs"], "rust", "rust", visitRust);

function syntaxOf(file: string) {
  const m = /\.([A-Za-z0-9]+)$/.exec(file);
  return (m && BY_EXT[m[1]!.toLowerCase()]) || null;
}

/** Whether ingest parses this file (by extension). */
export function isParsable(file: string): boolean {
  return syntaxOf(file) !== null;
}

/** What one syntax tree declares and uses, bounded (see the file comment). */
export function readTree(root: Node, language: string, visitor: Visitor): ParsedFile {
  const symbols: CodeSymbol[] = [];
  const seenSymbols = new Set<string>();
  const imports = new Set<string>();
  const calls = new Map<string, CodeUse>();
  const references = new Map<string, CodeUse>();
  let module: string | undefined;
  const use = (into: Map<string, CodeUse>, from: string | null, name: string) => {
    const key = `${from ?? ""}\u0000${name}`;
    if (into.size < INGEST_MAX_USES_PER_FILE && !into.has(key)) into.set(key, { from, name });
  };
  const top: Scope = { container: null, inClass: false, inFunction: false, owner: null };
  // Only nodes of a type the handlers name, found inside the runtime (`descendantsOfType`, in
  // document order). Scopes come only from such nodes, so an enclosing node's scope applies while
  // later nodes start before it ends: `open` is the stack of the enclosing scope-making nodes.
  const open: Array<{ end: number; scope: Scope }> = [];
  for (const n of root.descendantsOfType([...visitor.types])) {
    if (!n.isNamed) continue;
    while (open.length > 0 && open[open.length - 1]!.end <= n.startIndex) open.pop();
    const s = open.length > 0 ? open[open.length - 1]!.scope : top;
    const v = visitor.visit(n, s);
    if (v?.symbol && symbols.length < INGEST_MAX_SYMBOLS_PER_FILE) {
      const { kind, name, parent } = v.symbol;
      const key = `${kind} ${parent ?? ""}.${name}`;
      if (!seenSymbols.has(key)) {
        seenSymbols.add(key);
        symbols.push({ kind, name, line: n.startPosition.row + 1, ...(parent ? { parent } : {}) });
      }
    }
    for (const i of v?.imports ?? []) if (i.length > 0 && imports.size < INGEST_MAX_SYMBOLS_PER_FILE) imports.add(i);
    if (v?.module !== undefined && module === undefined && v.module.length > 0) module = v.module;
    if (v?.call) use(calls, s.owner, v.call);
    if (v?.reference) use(references, s.owner, v.reference);
    if (v?.inner) open.push({ end: n.endIndex, scope: v.inner });
  }
  return { language, symbols, imports: [...imports], calls: [...calls.values()], references: [...references.values()], ...(module !== undefined ? { module } : {}) };
}

/** The file's ParsedFile, or null when ingest does not parse its language. */
export async function parseSyntax(file: string, text: string): Promise<ParsedFile | null> {
  const syntax = syntaxOf(file);
  if (!syntax) return null;
  const parser = await parserFor(syntax.grammar);
  const tree = parser.parse(text);
  if (!tree) return { language: syntax.language, symbols: [], imports: [], calls: [], references: [] };
  let parsed: ParsedFile;
  try {
    parsed = readTree(tree.rootNode, syntax.language, syntax.visit);
  } finally {
    tree.delete();
  }
  return withDocs(parsed, text);
}

/** The file's and each symbol's documentation, read from the lines around their declarations. */
export function withDocs(parsed: ParsedFile, text: string): ParsedFile {
  const lines = text.split("\n");
  const doc = fileDoc(lines, parsed.language);
  const symbols = parsed.symbols.map((s) => {
    const d = symbolDoc(lines, s.line, parsed.language);
    return d === undefined || d === doc ? s : { ...s, doc: d };
  });
  return { ...parsed, symbols, ...(doc !== undefined ? { doc } : {}) };
}

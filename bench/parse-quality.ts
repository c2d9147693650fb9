/**
 * Parser quality: on a real TypeScript project (bench/code-project.ts,
 * zod's source by default) the symbols and the import edges ingest finds are
 * compared with the TypeScript compiler API's answer, for the tree-sitter
 * reader ingest uses and for the line-regex reader it replaced.
 *
 * The reference, by the compiler (`ts.createSourceFile` and its AST,
 * `ts.resolveModuleName` with bundler resolution), under ingest's definition of a symbol
 * (core/ingest/syntax-rules.ts): classes (and enums), interfaces, namespaces,
 * functions (declarations and `const f = () => …`/function expressions)
 * outside function bodies, and methods (incl. constructors and accessors)
 * directly in a class body, each keyed `kind Parent.name`; import edges are
 * file → file pairs the compiler resolves to a file of the project.
 * Precision = found ∩ reference / found; recall = found ∩ reference / reference.
 * Run alone: npx tsx bench/parse-quality.ts
 */
import path from "node:path/posix";
import ts from "typescript";
import { buildCodeGraph } from "../core/ingest/graph";
import { parseSource, type ParsedFile } from "../core/ingest/parse";
import { parseSyntax } from "../core/ingest/syntax";
import { projectDir, projectFiles, type ProjectFile } from "./code-project";

export interface Score {
  reader: string;
  what: string;
  reference: number;
  found: number;
  matched: number;
  precision: number;
  recall: number;
}

function referenceSymbols(f: ProjectFile): Set<string> {
  const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set<string>();
  const key = (kind: string, parent: string | null, name: string) => out.add(`${f.path} ${kind} ${parent ? `${parent}.` : ""}${name}`);
  const visit = (n: ts.Node, container: string | null, inClass: boolean, inFunction: boolean): void => {
    let c = container;
    let cls = inClass;
    let fn = inFunction;
    const nameText = (x: ts.DeclarationName | undefined) => (x && (ts.isIdentifier(x) || ts.isPrivateIdentifier(x) || ts.isStringLiteral(x)) ? x.text : null);
    if ((ts.isClassDeclaration(n) || ts.isClassExpression(n)) && n.name) {
      if (!fn) key("class", c, n.name.text);
      c = c ? `${c}.${n.name.text}` : n.name.text;
      cls = true;
    } else if (ts.isClassExpression(n)) {
      fn = true;
    } else if (ts.isInterfaceDeclaration(n) || ts.isEnumDeclaration(n)) {
      if (!fn) key(ts.isInterfaceDeclaration(n) ? "interface" : "class", c, n.name.text);
      c = c ? `${c}.${n.name.text}` : n.name.text;
      cls = false;
    } else if (ts.isModuleDeclaration(n)) {
      const name = n.name.text;
      if (!fn) key("module", c, name);
      c = c ? `${c}.${name}` : name;
      cls = false;
    } else if (ts.isFunctionDeclaration(n) && n.name && !cls) {
      if (!fn) key("function", c, n.name.text);
      fn = true;
    } else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer)) && !cls) {
      if (!fn) key("function", c, n.name.text);
      fn = true;
    } else if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) || ts.isConstructorDeclaration(n)) && cls) {
      const name = ts.isConstructorDeclaration(n) ? "constructor" : nameText(n.name);
      if (name && !fn) key("method", c, name);
      fn = true;
      cls = false;
    } else if (ts.isFunctionLike(n)) {
      fn = true;
      cls = false;
    } else if (ts.isObjectLiteralExpression(n)) {
      cls = false;
    }
    n.forEachChild((k) => visit(k, c, cls, fn));
  };
  visit(sf, null, false, false);
  return out;
}

/**
 * Every module a file names, from its AST: import and export declarations (`export * as ns from`
 * included — `ts.preProcessFile` misses that form), `import x = require()`, `import()` and `require()`.
 */
function moduleSpecifiers(f: ProjectFile): string[] {
  const sf = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression)) out.push(n.moduleReference.expression.text);
    else if (ts.isCallExpression(n) && n.arguments.length > 0 && ts.isStringLiteral(n.arguments[0]!)) {
      if (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === "require")) out.push(n.arguments[0].text);
    }
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

function referenceImports(files: ProjectFile[], dir: string): Set<string> {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true };
  const known = new Set(files.map((f) => f.path));
  const out = new Set<string>();
  for (const f of files) {
    for (const spec of moduleSpecifiers(f)) {
      const r = ts.resolveModuleName(spec, path.join(dir, f.path), options, ts.sys).resolvedModule;
      if (!r) continue;
      const rel = path.relative(dir, r.resolvedFileName);
      if (known.has(rel) && rel !== f.path) out.add(`${f.path} -> ${rel}`);
    }
  }
  return out;
}

function ourSymbols(f: ProjectFile, parsed: ParsedFile | null): Set<string> {
  return new Set((parsed?.symbols ?? []).map((s) => `${f.path} ${s.kind} ${s.parent ? `${s.parent}.` : ""}${s.name}`));
}

async function ourImports(files: ProjectFile[], parsed: Array<ParsedFile | null>): Promise<Set<string>> {
  const triples = await buildCodeGraph("bench", "bench", files.map((f, i) => ({ path: f.path, parsed: parsed[i] ?? null })), null);
  return new Set(triples.filter((t) => t.predicate === "imports").map((t) => `${t.subject.name} -> ${t.object.name}`));
}

function score(reader: string, what: string, ref: Set<string>, found: Set<string>): Score {
  let matched = 0;
  for (const x of found) if (ref.has(x)) matched++;
  return { reader, what, reference: ref.size, found: found.size, matched, precision: +(matched / Math.max(1, found.size)).toFixed(4), recall: +(matched / Math.max(1, ref.size)).toFixed(4) };
}

export async function benchParseQuality(): Promise<{ project: string; files: number; scores: Score[]; misses: string[] }> {
  const { dir, label } = projectDir();
  const files = await projectFiles(dir);
  const refSymbols = new Set(files.flatMap((f) => [...referenceSymbols(f)]));
  const refImports = referenceImports(files, dir);
  const scores: Score[] = [];
  let misses: string[] = [];
  for (const [reader, parse] of [
    ["tree-sitter", (f: ProjectFile) => parseSyntax(f.path, f.text)],
    ["regex", async (f: ProjectFile) => parseSource(f.path, f.text)],
  ] as const) {
    const parsed = await Promise.all(files.map((f) => parse(f)));
    const symbols = new Set(files.flatMap((f, i) => [...ourSymbols(f, parsed[i] ?? null)]));
    scores.push(score(reader, "symbols", refSymbols, symbols));
    const imports = await ourImports(files, parsed);
    scores.push(score(reader, "import edges", refImports, imports));
    if (reader === "tree-sitter") {
      misses = [...[...imports].filter((x) => !refImports.has(x)).slice(0, 5).map((x) => `extra import: ${x}`), ...[...refImports].filter((x) => !imports.has(x)).slice(0, 5).map((x) => `missed import: ${x}`),...[...refSymbols].filter((x) => !symbols.has(x)).slice(0, 5).map((x) => `missed: ${x}`), ...[...symbols].filter((x) => !refSymbols.has(x)).slice(0, 5).map((x) => `extra:  ${x}`)];
    }
  }
  return { project: label, files: files.length, scores, misses };
}

export function printParseQuality(r: Awaited<ReturnType<typeof benchParseQuality>>): void {
  console.log(`\n== parser quality vs the TypeScript compiler API: ${r.project}, ${r.files} files`);
  console.table(r.scores);
  if (r.misses.length > 0) console.log(`tree-sitter differences (first few):\n  ${r.misses.join("\n  ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printParseQuality(await benchParseQuality());
}

/**
 * The repository code graph of one snapshot (WRK-2), as durable triples for
 * the RepositoryMemoryStore: a `Node` per repository, file, package and
 * symbol, and edges
 *  - `contains`: repository → file, package → file, file → top-level symbol,
 *    class/module → member;
 *  - `imports`: file → file, where the specifier resolves to a file of the snapshot;
 *  - `calls`: symbol (or file, for file-level code) → function, method or
 *    class (a constructor call) it calls;
 *  - `references`: symbol (or file) → class or interface whose name it uses;
 *  - `documented_as`: symbol or file → a `code.doc` node named by the first sentences of its doc
 *    comment, docstring or leading file comment (redacted like every name, ≤200 characters), so
 *    recall matches what the code does in the words its authors used ("Verifies a bearer token")
 *    and not only its identifiers; equal texts share one node.
 * Every triple carries `source: "ingest"`, so a re-ingest can prune what the
 * previous snapshot had and this one has not.
 *
 * Calls and references are by name, resolved the way a reader would: first
 * the file's own symbols, then those of the files it imports (for Go and
 * Java also the files of its package), then a name declared exactly once in
 * the snapshot. A name that matches more than USE_MAX_TARGETS symbols at the
 * first level where it matches is ambiguous and left out.
 *
 * Node types are `code.repository`, `code.file`, `code.package`, `code.module`,
 * `code.class`, `code.interface`, `code.function`, `code.method`, `code.doc`; a symbol's
 * name is `<file>#<Parent.member>` (unique per repository, and its words
 * match recall).
 */
import path from "node:path/posix";
import { MAX_ENTITY_NAME_CHARS } from "../limits";
import { normalizeName, repoFactId, repoNodeId } from "../memory/ids";
import type { DurableTriple } from "../memory/repository-store";
import { redact } from "../redact";
import { giveTurn } from "../turn";
import type { ParsedFile } from "./parse";

export const INGEST_SOURCE = "ingest";
/** symbol or file → `code.doc` node named by what its doc comment says (recall reads and embeds it). */
export const DOC_PREDICATE = "documented_as";
export const CODE_TYPE_PREFIX = "code.";

export interface GraphFile {
  path: string;
  parsed: ParsedFile | null;
}

type NodeRef = DurableTriple["subject"];

const TS_EXTS = ["", ".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js"];

/** The snapshot file an import specifier names, or null (packages, stdlib, unresolvable). */
export function resolveImport(from: string, spec: string, language: string, files: Set<string>, goModule: string | null): string[] {
  const dir = path.dirname(from);
  if (language === "typescript" || language === "javascript") {
    if (!spec.startsWith(".")) return [];
    const base = path.normalize(path.join(dir, spec));
    const stems = [base, base.replace(/\.(m|c)?js$/, "")];
    for (const s of stems) for (const ext of TS_EXTS) if (files.has(s + ext)) return [s + ext];
    return [];
  }
  if (language === "python") {
    const dots = /^\.*/.exec(spec)![0].length;
    const mod = spec.slice(dots).replace(/\./g, "/");
    let baseDir = "";
    if (dots > 0) {
      baseDir = dir;
      for (let i = 1; i < dots; i++) baseDir = path.dirname(baseDir);
    }
    const join = (p: string) => (baseDir && baseDir !== "." ? path.join(baseDir, p) : p);
    for (const c of [`${mod}.py`, `${mod}/__init__.py`]) if (mod && files.has(join(c))) return [join(c)];
    // A top-level module imported from a package directory next to the file.
    if (dots === 0 && mod && dir !== "." && files.has(path.join(dir, `${mod}.py`))) return [path.join(dir, `${mod}.py`)];
    return [];
  }
  if (language === "java") {
    const rel = `${spec.replace(/\.\*$/, "").replace(/\./g, "/")}.java`;
    for (const f of files) if (f === rel || f.endsWith(`/${rel}`)) return [f];
    return [];
  }
  if (language === "rust") return resolveRustUse(from, spec, files);
  if (language === "go" && goModule && (spec === goModule || spec.startsWith(`${goModule}/`))) {
    const pkgDir = spec === goModule ? "." : spec.slice(goModule.length + 1);
    const out: string[] = [];
    for (const f of files) if (path.dirname(f) === pkgDir && f.endsWith(".go") && !f.endsWith("_test.go")) out.push(f);
    return out.sort().slice(0, 20);
  }
  return [];
}

/**
 * A Rust `use` path or `mod` declaration (`crate::a::b::{C, D}`, `self::a`, `super::x::Y`) → the
 * file of its longest module prefix: `<dir>/a/b.rs` or `<dir>/a/b/mod.rs`, where `crate` is the
 * `src` directory above the file, `self` the file's own module directory and `super` its parent.
 */
function resolveRustUse(from: string, spec: string, files: Set<string>): string[] {
  const segs = spec.replace(/::\{.*$/, "").replace(/::\*$/, "").split("::").filter(Boolean);
  const dir = path.dirname(from);
  const stem = path.basename(from, ".rs");
  const selfDir = ["mod", "lib", "main"].includes(stem) ? dir : path.join(dir, stem);
  let base: string;
  if (segs[0] === "crate") {
    const parts = from.split("/");
    const src = parts.lastIndexOf("src", parts.length - 2);
    base = src >= 0 ? parts.slice(0, src + 1).join("/") : dir;
    segs.shift();
  } else if (segs[0] === "self") {
    base = selfDir;
    segs.shift();
  } else if (segs[0] === "super") {
    base = selfDir;
    while (segs[0] === "super") {
      base = path.dirname(base);
      segs.shift();
    }
  } else return [];
  for (let k = segs.length; k >= 1; k--) {
    const rel = path.normalize(path.join(base, ...segs.slice(0, k)));
    for (const c of [`${rel}.rs`, `${rel}/mod.rs`]) if (files.has(c)) return [c];
  }
  return [];
}

/** Redacts names in bulk: one pass per file; names that change are redacted one by one. */
async function cleanNames(names: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const joined = names.join("\n");
  const r = await redact(joined);
  if (r.text === joined) {
    for (const n of names) out.set(n, n);
    return out;
  }
  for (const n of names) out.set(n, (await redact(n)).text);
  return out;
}

/** At most this many targets per used name at the level where it resolves. */
export const USE_MAX_TARGETS = 3;

const CALLABLE = new Set(["function", "method", "class"]);
const TYPES = new Set(["class", "interface"]);

interface FileSymbols {
  /** Qualified name within the file (`Class.method`) → node. */
  byQualified: Map<string, NodeRef | null>;
  /** Simple name → nodes with their kind. */
  bySimple: Map<string, Array<{ kind: string; node: NodeRef }>>;
}

const qualifiedOf = (s: { name: string; parent?: string | undefined }) => (s.parent ? `${s.parent}.${s.name}` : s.name);

export async function buildCodeGraph(repoId: string, repoName: string, files: GraphFile[], goModule: string | null): Promise<DurableTriple[]> {
  const triples = new Map<string, DurableTriple>();
  const node = (type: string, name: string): NodeRef | null => {
    const n = normalizeName(name);
    if (n.length < 1 || n.length > MAX_ENTITY_NAME_CHARS) return null;
    return { id: repoNodeId(repoId, type, n), name: n, type };
  };
  const edge = (s: NodeRef | null, predicate: string, o: NodeRef | null) => {
    if (!s || !o) return;
    const id = repoFactId(repoId, s.id, predicate, o.id);
    if (!triples.has(id)) triples.set(id, { fact_id: id, subject: s, predicate, object: o, source: INGEST_SOURCE });
  };
  const repo = node(`${CODE_TYPE_PREFIX}repository`, repoName);
  const paths = new Set(files.map((f) => f.path));
  const fileNodes = new Map<string, NodeRef | null>();
  const symbolsOf = new Map<string, FileSymbols>();
  const global = new Map<string, Array<{ kind: string; node: NodeRef }>>();

  // 1. Files, packages, symbols and `contains`.
  for (const f of files) {
    await giveTurn();
    const symbols = f.parsed?.symbols ?? [];
    const symbolNames = symbols.map((s) => `${f.path}#${qualifiedOf(s)}`);
    const docs = [f.parsed?.doc, ...symbols.map((s) => s.doc)].filter((d): d is string => d !== undefined);
    const clean = await cleanNames([f.path, ...symbolNames, ...docs]);
    const fileNode = node(`${CODE_TYPE_PREFIX}file`, clean.get(f.path)!);
    fileNodes.set(f.path, fileNode);
    edge(repo, "contains", fileNode);
    if (!f.parsed) continue;
    const documented = (n: NodeRef | null, doc: string | undefined) => {
      if (doc !== undefined) edge(n, DOC_PREDICATE, node(`${CODE_TYPE_PREFIX}doc`, clean.get(doc)!));
    };
    documented(fileNode, f.parsed.doc);
    if (f.parsed.module) {
      const dir = path.dirname(f.path);
      const pkg = f.parsed.language === "go" && goModule ? (dir === "." ? goModule : `${goModule}/${dir}`) : f.parsed.module;
      edge(node(`${CODE_TYPE_PREFIX}package`, `${f.parsed.language}:${pkg}`), "contains", fileNode);
    }
    const own: FileSymbols = { byQualified: new Map(), bySimple: new Map() };
    symbols.forEach((s, i) => {
      const n = node(`${CODE_TYPE_PREFIX}${s.kind}`, clean.get(symbolNames[i]!)!);
      own.byQualified.set(qualifiedOf(s), n);
      const owner = s.parent ? own.byQualified.get(s.parent) : undefined;
      edge(owner ?? fileNode, "contains", n);
      if (!n) return;
      documented(n, s.doc);
      const entry = { kind: s.kind, node: n };
      own.bySimple.set(s.name, [...(own.bySimple.get(s.name) ?? []), entry]);
      const g = global.get(s.name);
      if (!g) global.set(s.name, [entry]);
      else if (g.length <= USE_MAX_TARGETS) g.push(entry);
    });
    symbolsOf.set(f.path, own);
  }

  // 2. `imports`, then `calls` and `references` through the files in scope.
  for (const f of files) {
    await giveTurn();
    if (!f.parsed) continue;
    const fileNode = fileNodes.get(f.path) ?? null;
    const imported: string[] = [];
    for (const spec of f.parsed.imports) {
      for (const target of resolveImport(f.path, spec, f.parsed.language, paths, goModule)) {
        if (target === f.path) continue;
        imported.push(target);
        edge(fileNode, "imports", fileNodes.get(target) ?? null);
      }
    }
    if (f.parsed.language === "go" || f.parsed.language === "java") {
      const dir = path.dirname(f.path);
      const ext = path.extname(f.path);
      for (const p of paths) if (p !== f.path && path.dirname(p) === dir && p.endsWith(ext)) imported.push(p);
    }
    const own = symbolsOf.get(f.path)!;
    const levels = [[own], [...new Set(imported)].map((p) => symbolsOf.get(p)).filter((x): x is FileSymbols => !!x)];
    const resolve = (name: string, kinds: Set<string>): NodeRef[] => {
      for (const level of levels) {
        const hits = level.flatMap((fs) => fs.bySimple.get(name) ?? []).filter((h) => kinds.has(h.kind));
        if (hits.length > 0) return hits.length <= USE_MAX_TARGETS ? hits.map((h) => h.node) : [];
      }
      const g = (global.get(name) ?? []).filter((h) => kinds.has(h.kind));
      return g.length === 1 ? [g[0]!.node] : [];
    };
    const link = (uses: ParsedFile["calls"], predicate: string, kinds: Set<string>) => {
      for (const u of uses ?? []) {
        const from = (u.from !== null ? own.byQualified.get(u.from) : null) ?? fileNode;
        for (const target of resolve(u.name, kinds)) if (target.id !== from?.id || predicate === "calls") edge(from, predicate, target);
      }
    };
    link(f.parsed.calls, "calls", CALLABLE);
    link(f.parsed.references, "references", TYPES);
  }
  return [...triples.values()];
}

/** `module x/y` of a go.mod, if any. */
export function goModuleOf(goMod: string | null): string | null {
  if (!goMod) return null;
  const m = /^\s*module\s+(\S+)/m.exec(goMod);
  return m ? m[1]! : null;
}

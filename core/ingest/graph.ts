/**
 * The repository code graph of one snapshot (WRK-2), as durable triples for
 * the RepositoryMemoryStore: a `Node` per repository, file and symbol, and
 * edges `contains` (repository → file, file → top-level symbol, class →
 * member) and `imports` (file → file, where the specifier resolves to a file
 * of the snapshot). Every triple carries `source: "ingest"`, so a re-ingest
 * can prune what the previous snapshot had and this one has not.
 *
 * Node types are `code.repository`, `code.file`, `code.class`,
 * `code.interface`, `code.function`, `code.method`; a symbol's name is
 * `<file>#<Class.member>` (unique per repository, and its words match recall).
 */
import path from "node:path/posix";
import { MAX_ENTITY_NAME_CHARS } from "../limits";
import { normalizeName, repoFactId, repoNodeId } from "../memory/ids";
import type { DurableTriple } from "../memory/repository-store";
import { redact } from "../redact";
import type { ParsedFile } from "./parse";

export const INGEST_SOURCE = "ingest";
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
  if (language === "go" && goModule && (spec === goModule || spec.startsWith(`${goModule}/`))) {
    const pkgDir = spec === goModule ? "." : spec.slice(goModule.length + 1);
    const out: string[] = [];
    for (const f of files) if (path.dirname(f) === pkgDir && f.endsWith(".go") && !f.endsWith("_test.go")) out.push(f);
    return out.sort().slice(0, 20);
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
  for (const f of files) {
    const symbolNames = (f.parsed?.symbols ?? []).map((s) => `${f.path}#${s.parent ? `${s.parent}.` : ""}${s.name}`);
    const clean = await cleanNames([f.path, ...symbolNames]);
    const fileNode = node(`${CODE_TYPE_PREFIX}file`, clean.get(f.path)!);
    edge(repo, "contains", fileNode);
    if (!f.parsed) continue;
    const classNodes = new Map<string, NodeRef | null>();
    f.parsed.symbols.forEach((s, i) => {
      const n = node(`${CODE_TYPE_PREFIX}${s.kind}`, clean.get(symbolNames[i]!)!);
      if (s.kind === "class" || s.kind === "interface") classNodes.set(s.name, n);
      const owner = s.parent ? classNodes.get(s.parent) : undefined;
      edge(owner ?? fileNode, "contains", n);
    });
    for (const spec of f.parsed.imports) {
      for (const target of resolveImport(f.path, spec, f.parsed.language, paths, goModule)) {
        if (target !== f.path) edge(fileNode, "imports", node(`${CODE_TYPE_PREFIX}file`, (await cleanNames([target])).get(target)!));
      }
    }
  }
  return [...triples.values()];
}

/** `module x/y` of a go.mod, if any. */
export function goModuleOf(goMod: string | null): string | null {
  if (!goMod) return null;
  const m = /^\s*module\s+(\S+)/m.exec(goMod);
  return m ? m[1]! : null;
}

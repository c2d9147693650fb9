/**
 * What each language's syntax tree means to the code graph: one `visit`
 * function per language that looks at one node and says what it declares
 * (a symbol, an import, the module the file belongs to), what it uses (a call
 * or a type reference), and the scope its children are in.
 *
 * Scope rules, the same for every language:
 *  - a symbol is a declaration outside any function body: classes (also
 *    structs, enums, records), interfaces (also traits), functions (also
 *    `const f = () => …` at module level), methods (directly in a class body,
 *    or an `impl`/trait block), modules (TypeScript namespaces, Rust `mod`);
 *  - `parent` is the enclosing class or module, dotted (`NS.Outer.Inner`);
 *  - calls and references are attributed to the innermost enclosing symbol
 *    (`null` at file level) and carry the simple name used.
 */
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "./parse";

export interface Scope {
  /** The enclosing class/module, dotted, or null at file level. */
  container: string | null;
  /** The container is a class body (methods are declared here). */
  inClass: boolean;
  /** Inside a function body: no symbol is declared here. */
  inFunction: boolean;
  /** The innermost enclosing symbol, qualified (`Class.method`), for calls and references. */
  owner: string | null;
}

export interface Visit {
  symbol?: { kind: SymbolKind; name: string; parent: string | null };
  /** The scope of this node's children (default: the node's own scope). */
  inner?: Scope;
  imports?: string[];
  module?: string;
  call?: string;
  reference?: string;
}

type Handler = (n: Node, s: Scope) => Visit | null;

/** A language's handlers by node type; the walker hands it only nodes of these types. */
export interface Visitor {
  types: ReadonlySet<string>;
  visit: Handler;
}

function rules(table: Array<[string[], Handler]>): Visitor {
  const byType = new Map<string, Handler>();
  for (const [types, h] of table) for (const t of types) byType.set(t, h);
  return { types: new Set(byType.keys()), visit: (n, s) => byType.get(n.type)?.(n, s) ?? null };
}

const qualify = (s: Scope, name: string) => (s.container ? `${s.container}.${name}` : name);
const field = (n: Node, f: string) => n.childForFieldName(f);
const nameOf = (n: Node) => field(n, "name")?.text ?? null;
const isDeclName = (n: Node) => {
  const p = n.parent;
  return !!p && field(p, "name")?.id === n.id;
};

/** A declared type: a class body scope, or nothing inside a function. */
function declareType(n: Node, s: Scope, kind: SymbolKind, name: string | null, inClass = kind === "class"): Visit | null {
  if (!name) return null;
  const q = qualify(s, name);
  const inner: Scope = { container: q, inClass, inFunction: s.inFunction, owner: s.inFunction ? s.owner : q };
  return s.inFunction ? { inner } : { symbol: { kind, name, parent: s.container }, inner };
}

/** A function or method: a symbol outside function bodies; its body is a function scope. */
function declareFunction(s: Scope, name: string | null): Visit | null {
  if (!name) return null;
  if (s.inFunction) return null;
  const kind: SymbolKind = s.inClass ? "method" : "function";
  return { symbol: { kind, name, parent: s.container }, inner: { container: s.container, inClass: false, inFunction: true, owner: qualify(s, name) } };
}

const unquote = (t: string) => t.replace(/^["'`]|["'`]$/g, "");
const lastWord = (t: string) => /([A-Za-z_$][\w$]*)\s*$/.exec(t)?.[1] ?? null;

export const visitTypeScript: Visitor = rules([
  [["class_declaration", "abstract_class_declaration"], (n, s) => declareType(n, s, "class", nameOf(n))],
  [["class"], (n, s) => declareType(n, s, "class", nameOf(n)) ?? { inner: { ...s, inClass: false, inFunction: true } }],
  [["interface_declaration"], (n, s) => declareType(n, s, "interface", nameOf(n), false)],
  [["enum_declaration"], (n, s) => declareType(n, s, "class", nameOf(n), false)],
  [["internal_module", "module"], (n, s) => {
    const name = nameOf(n);
    return declareType(n, s, "module", name ? unquote(name) : null, false);
  }],
  [["function_declaration", "generator_function_declaration", "function_signature"], (n, s) => s.inClass ? null : declareFunction(s, nameOf(n))],
  [["method_definition", "abstract_method_signature"], (n, s) => {
    const name = field(n, "name");
    if (!s.inClass || !name || name.type === "computed_property_name") return { inner: { ...s, inClass: false, inFunction: true } };
    return declareFunction(s, name.type === "string" ? unquote(name.text) : name.text);
  }],
  // A function value not declared as a symbol (a callback, an IIFE): its body declares nothing.
  [["arrow_function", "function_expression", "function", "generator_function"], (_n, s) => ({ inner: { ...s, inClass: false, inFunction: true } })],
  [["variable_declarator"], (n, s) => {
    const value = field(n, "value");
    const name = field(n, "name");
    if (!value || !name || name.type !== "identifier" || s.inClass) return null;
    if (!["arrow_function", "function_expression", "function", "generator_function"].includes(value.type)) return null;
    return declareFunction(s, name.text);
  }],
  [["import_statement", "export_statement"], (n) => {
    const src = field(n, "source");
    return src ? { imports: [unquote(src.text)] } : null;
  }],
  [["call_expression"], (n) => {
    const fn = field(n, "function");
    if (!fn) return null;
    const arg = field(n, "arguments")?.namedChildren[0];
    if ((fn.type === "import" || (fn.type === "identifier" && fn.text === "require")) && arg?.type === "string") return { imports: [unquote(arg.text)] };
    if (fn.type === "identifier") return { call: fn.text };
    if (fn.type === "member_expression") {
      const p = field(fn, "property");
      return p ? { call: p.text } : null;
    }
    return null;
  }],
  [["new_expression"], (n) => {
    const c = field(n, "constructor");
    return c?.type === "identifier" ? { call: c.text } : null;
  }],
  [["type_identifier"], (n) => (isDeclName(n) ? null : { reference: n.text })],
  [["extends_clause"], (n) => {
    const v = field(n, "value");
    return v?.type === "identifier" ? { reference: v.text } : null;
  }],
]);

export const visitPython: Visitor = rules([
  [["class_definition"], (n, s) => declareType(n, s, "class", nameOf(n))],
  [["function_definition"], (n, s) => declareFunction(s, nameOf(n))],
  [["import_statement"], (n) => {
    return {
      imports: n.namedChildren.map((c) => (c.type === "aliased_import" ? (field(c, "name")?.text ?? "") : c.text)).filter((t) => t.length > 0),
    };
  }],
  [["import_from_statement"], (n) => {
    const mod = field(n, "module_name")?.text ?? "";
    if (/^\.+$/.test(mod)) {
      const names = n.childrenForFieldName("name").map((c) => (c.type === "aliased_import" ? (field(c, "name")?.text ?? "") : c.text));
      return { imports: names.filter(Boolean).map((x) => `${mod}${x}`) };
    }
    return mod ? { imports: [mod] } : null;
  }],
  [["call"], (n) => {
    const fn = field(n, "function");
    if (fn?.type === "identifier") return { call: fn.text };
    if (fn?.type === "attribute") {
      const a = field(fn, "attribute");
      return a ? { call: a.text } : null;
    }
    return null;
  }],
  [["identifier", "attribute"], (n) => n.parent?.type === "argument_list" && n.parent.parent?.type === "class_definition" ? { reference: lastWord(n.text) ?? n.text } : null],
]);

function goReceiverType(n: Node): string | null {
  const param = field(n, "receiver")?.namedChildren.find((c) => c.type === "parameter_declaration");
  let t = param ? field(param, "type") : null;
  while (t && (t.type === "pointer_type" || t.type === "generic_type")) t = t.type === "pointer_type" ? t.namedChildren[0]! : field(t, "type");
  return t?.type === "type_identifier" ? t.text : null;
}

export const visitGo: Visitor = rules([
  [["package_clause"], (n) => ({ module: n.namedChildren[0]?.text ?? "" })],
  [["type_spec"], (n, s) => {
    const t = field(n, "type")?.type;
    if (t === "struct_type") return declareType(n, s, "class", nameOf(n), false);
    if (t === "interface_type") return declareType(n, s, "interface", nameOf(n), false);
    return null;
  }],
  [["function_declaration"], (n, s) => declareFunction(s, nameOf(n))],
  [["method_declaration"], (n) => {
    const recv = goReceiverType(n);
    const name = nameOf(n);
    if (!recv || !name) return null;
    return declareFunction({ container: recv, inClass: true, inFunction: false, owner: null }, name);
  }],
  [["import_spec"], (n) => {
    const p = field(n, "path");
    return p ? { imports: [unquote(p.text)] } : null;
  }],
  [["call_expression"], (n) => {
    const fn = field(n, "function");
    if (fn?.type === "identifier") return { call: fn.text };
    if (fn?.type === "selector_expression") {
      const f = field(fn, "field");
      return f ? { call: f.text } : null;
    }
    return null;
  }],
  [["type_identifier"], (n) => (isDeclName(n) ? null : { reference: n.text })],
]);

export const visitJava: Visitor = rules([
  [["package_declaration"], (n) => ({ module: n.namedChildren.find((c) => c.type === "scoped_identifier" || c.type === "identifier")?.text ?? "" })],
  [["class_declaration", "enum_declaration", "record_declaration"], (n, s) => declareType(n, s, "class", nameOf(n))],
  [["interface_declaration", "annotation_type_declaration"], (n, s) => declareType(n, s, "interface", nameOf(n), false)],
  [["method_declaration", "constructor_declaration"], (n, s) => s.inClass ? declareFunction(s, nameOf(n)) : { inner: { ...s, inFunction: true } }],
  [["import_declaration"], (n) => {
    const id = n.namedChildren.find((c) => c.type === "scoped_identifier" || c.type === "identifier");
    if (!id) return null;
    return { imports: [id.text + (n.namedChildren.some((c) => c.type === "asterisk") ? ".*" : "")] };
  }],
  [["method_invocation"], (n) => nameOf(n) ? { call: nameOf(n)! } : null],
  [["object_creation_expression"], (n) => {
    let t = field(n, "type");
    if (t?.type === "generic_type") t = t.namedChildren[0] ?? null;
    return t?.type === "type_identifier" ? { call: t.text } : null;
  }],
  [["type_identifier"], (n) => (isDeclName(n) ? null : { reference: n.text })],
]);

function rustTypeName(t: Node | null): string | null {
  while (t && t.type === "generic_type") t = field(t, "type");
  if (t?.type === "scoped_type_identifier") t = field(t, "name");
  return t?.type === "type_identifier" ? t.text : null;
}

export const visitRust: Visitor = rules([
  [["mod_item"], (n, s) => {
    const name = nameOf(n);
    if (!name) return null;
    if (!field(n, "body")) return s.inFunction ? null : { symbol: { kind: "module", name, parent: s.container }, imports: [`self::${name}`] };
    return declareType(n, s, "module", name, false);
  }],
  [["struct_item", "enum_item", "union_item"], (n, s) => declareType(n, s, "class", nameOf(n), false)],
  [["trait_item"], (n, s) => declareType(n, s, "interface", nameOf(n), true)],
  [["impl_item"], (n, s) => {
    const t = rustTypeName(field(n, "type"));
    return t && !s.inFunction ? { inner: { container: t, inClass: true, inFunction: false, owner: t } } : null;
  }],
  [["function_item", "function_signature_item"], (n, s) => declareFunction(s, nameOf(n))],
  [["use_declaration"], (n) => {
    const a = field(n, "argument");
    return a ? { imports: [a.text.replace(/\s+/g, "")] } : null;
  }],
  [["call_expression"], (n) => {
    let fn = field(n, "function");
    if (fn?.type === "generic_function") fn = field(fn, "function");
    if (fn?.type === "identifier") return { call: fn.text };
    if (fn?.type === "field_expression") return field(fn, "field") ? { call: field(fn, "field")!.text } : null;
    if (fn?.type === "scoped_identifier") return field(fn, "name") ? { call: field(fn, "name")!.text } : null;
    return null;
  }],
  [["type_identifier"], (n) => (isDeclName(n) ? null : { reference: n.text })],
]);

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

export type Visitor = (n: Node, s: Scope) => Visit | null;

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

export const visitTypeScript: Visitor = (n, s) => {
  switch (n.type) {
    case "class_declaration":
    case "abstract_class_declaration":
      return declareType(n, s, "class", nameOf(n));
    case "class":
      return declareType(n, s, "class", nameOf(n)) ?? { inner: { ...s, inClass: false, inFunction: true } };
    case "interface_declaration":
      return declareType(n, s, "interface", nameOf(n), false);
    case "enum_declaration":
      return declareType(n, s, "class", nameOf(n), false);
    case "internal_module":
    case "module": {
      const name = nameOf(n);
      return declareType(n, s, "module", name ? unquote(name) : null, false);
    }
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
      return s.inClass ? null : declareFunction(s, nameOf(n));
    case "method_definition":
    case "abstract_method_signature": {
      const name = field(n, "name");
      if (!s.inClass || !name || name.type === "computed_property_name") return { inner: { ...s, inClass: false, inFunction: true } };
      return declareFunction(s, name.text);
    }
    case "variable_declarator": {
      const value = field(n, "value");
      const name = field(n, "name");
      if (!value || !name || name.type !== "identifier" || s.inClass) return null;
      if (!["arrow_function", "function_expression", "function", "generator_function"].includes(value.type)) return null;
      return declareFunction(s, name.text);
    }
    case "import_statement":
    case "export_statement": {
      const src = field(n, "source");
      return src ? { imports: [unquote(src.text)] } : null;
    }
    case "call_expression": {
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
    }
    case "new_expression": {
      const c = field(n, "constructor");
      return c?.type === "identifier" ? { call: c.text } : null;
    }
    case "type_identifier":
      return isDeclName(n) ? null : { reference: n.text };
    case "extends_clause": {
      const v = field(n, "value");
      return v?.type === "identifier" ? { reference: v.text } : null;
    }
    default:
      return null;
  }
};

export const visitPython: Visitor = (n, s) => {
  switch (n.type) {
    case "class_definition":
      return declareType(n, s, "class", nameOf(n));
    case "function_definition":
      return declareFunction(s, nameOf(n));
    case "import_statement":
      return {
        imports: n.namedChildren.map((c) => (c.type === "aliased_import" ? (field(c, "name")?.text ?? "") : c.text)).filter((t) => t.length > 0),
      };
    case "import_from_statement": {
      const mod = field(n, "module_name")?.text ?? "";
      if (/^\.+$/.test(mod)) {
        const names = n.childrenForFieldName("name").map((c) => (c.type === "aliased_import" ? (field(c, "name")?.text ?? "") : c.text));
        return { imports: names.filter(Boolean).map((x) => `${mod}${x}`) };
      }
      return mod ? { imports: [mod] } : null;
    }
    case "call": {
      const fn = field(n, "function");
      if (fn?.type === "identifier") return { call: fn.text };
      if (fn?.type === "attribute") {
        const a = field(fn, "attribute");
        return a ? { call: a.text } : null;
      }
      return null;
    }
    case "identifier":
    case "attribute":
      return n.parent?.type === "argument_list" && n.parent.parent?.type === "class_definition" ? { reference: lastWord(n.text) ?? n.text } : null;
    default:
      return null;
  }
};

function goReceiverType(n: Node): string | null {
  const param = field(n, "receiver")?.namedChildren.find((c) => c.type === "parameter_declaration");
  let t = param ? field(param, "type") : null;
  while (t && (t.type === "pointer_type" || t.type === "generic_type")) t = t.type === "pointer_type" ? t.namedChildren[0]! : field(t, "type");
  return t?.type === "type_identifier" ? t.text : null;
}

export const visitGo: Visitor = (n, s) => {
  switch (n.type) {
    case "package_clause":
      return { module: n.namedChildren[0]?.text ?? "" };
    case "type_spec": {
      const t = field(n, "type")?.type;
      if (t === "struct_type") return declareType(n, s, "class", nameOf(n), false);
      if (t === "interface_type") return declareType(n, s, "interface", nameOf(n), false);
      return null;
    }
    case "function_declaration":
      return declareFunction(s, nameOf(n));
    case "method_declaration": {
      const recv = goReceiverType(n);
      const name = nameOf(n);
      if (!recv || !name) return null;
      return declareFunction({ container: recv, inClass: true, inFunction: false, owner: null }, name);
    }
    case "import_spec": {
      const p = field(n, "path");
      return p ? { imports: [unquote(p.text)] } : null;
    }
    case "call_expression": {
      const fn = field(n, "function");
      if (fn?.type === "identifier") return { call: fn.text };
      if (fn?.type === "selector_expression") {
        const f = field(fn, "field");
        return f ? { call: f.text } : null;
      }
      return null;
    }
    case "type_identifier":
      return isDeclName(n) ? null : { reference: n.text };
    default:
      return null;
  }
};

export const visitJava: Visitor = (n, s) => {
  switch (n.type) {
    case "package_declaration":
      return { module: n.namedChildren.find((c) => c.type === "scoped_identifier" || c.type === "identifier")?.text ?? "" };
    case "class_declaration":
    case "enum_declaration":
    case "record_declaration":
      return declareType(n, s, "class", nameOf(n));
    case "interface_declaration":
    case "annotation_type_declaration":
      return declareType(n, s, "interface", nameOf(n), false);
    case "method_declaration":
    case "constructor_declaration":
      return s.inClass ? declareFunction(s, nameOf(n)) : { inner: { ...s, inFunction: true } };
    case "import_declaration": {
      const id = n.namedChildren.find((c) => c.type === "scoped_identifier" || c.type === "identifier");
      if (!id) return null;
      return { imports: [id.text + (n.namedChildren.some((c) => c.type === "asterisk") ? ".*" : "")] };
    }
    case "method_invocation":
      return nameOf(n) ? { call: nameOf(n)! } : null;
    case "object_creation_expression": {
      let t = field(n, "type");
      if (t?.type === "generic_type") t = t.namedChildren[0] ?? null;
      return t?.type === "type_identifier" ? { call: t.text } : null;
    }
    case "type_identifier":
      return isDeclName(n) ? null : { reference: n.text };
    default:
      return null;
  }
};

function rustTypeName(t: Node | null): string | null {
  while (t && t.type === "generic_type") t = field(t, "type");
  if (t?.type === "scoped_type_identifier") t = field(t, "name");
  return t?.type === "type_identifier" ? t.text : null;
}

export const visitRust: Visitor = (n, s) => {
  switch (n.type) {
    case "mod_item": {
      const name = nameOf(n);
      if (!name) return null;
      if (!field(n, "body")) return s.inFunction ? null : { symbol: { kind: "module", name, parent: s.container }, imports: [`self::${name}`] };
      return declareType(n, s, "module", name, false);
    }
    case "struct_item":
    case "enum_item":
    case "union_item":
      return declareType(n, s, "class", nameOf(n), false);
    case "trait_item":
      return declareType(n, s, "interface", nameOf(n), true);
    case "impl_item": {
      const t = rustTypeName(field(n, "type"));
      return t && !s.inFunction ? { inner: { container: t, inClass: true, inFunction: false, owner: t } } : null;
    }
    case "function_item":
    case "function_signature_item":
      return declareFunction(s, nameOf(n));
    case "use_declaration": {
      const a = field(n, "argument");
      return a ? { imports: [a.text.replace(/\s+/g, "")] } : null;
    }
    case "call_expression": {
      let fn = field(n, "function");
      if (fn?.type === "generic_function") fn = field(fn, "function");
      if (fn?.type === "identifier") return { call: fn.text };
      if (fn?.type === "field_expression") return field(fn, "field") ? { call: field(fn, "field")!.text } : null;
      if (fn?.type === "scoped_identifier") return field(fn, "name") ? { call: field(fn, "name")!.text } : null;
      return null;
    }
    case "type_identifier":
      return isDeclName(n) ? null : { reference: n.text };
    default:
      return null;
  }
};

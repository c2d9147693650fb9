/**
 * Tree-sitter ingest parsing (core/ingest/syntax.ts) per language, and what
 * the code graph makes of it (core/ingest/graph.ts): symbols with their
 * parents, imports, the package a file declares, calls and references, and
 * their resolution to symbols of the snapshot.
 */
import { describe, expect, it } from "vitest";
import { buildCodeGraph } from "../../core/ingest/graph";
import { loadedGrammars } from "../../core/ingest/grammars";
import type { ParsedFile } from "../../core/ingest/parse";
import { parseSyntax } from "../../core/ingest/syntax";

const sym = (p: ParsedFile | null) => (p?.symbols ?? []).map((s) => `${s.kind} ${s.parent ? `${s.parent}.` : ""}${s.name}`).sort();
const uses = (xs: ParsedFile["calls"]) => (xs ?? []).map((u) => `${u.from ?? "-"}>${u.name}`).sort();

describe("tree-sitter parsing", () => {
  it("loads no grammar before a file of its language is parsed, then only that one", async () => {
    expect(loadedGrammars()).toEqual([]);
    await parseSyntax("a.py", "x = 1\n");
    expect(loadedGrammars()).toEqual(["python"]);
  });

  it("TypeScript: classes, abstract and private methods, interfaces, enums, namespaces, arrow functions, overloads once; string-named methods; nothing declared inside functions or callbacks", async () => {
    const p = await parseSyntax(
      "src/a.ts",
      [
        'import { A } from "./a";',
        'export * from "./b";',
        'const lazy = () => import("./c");',
        "export default class K extends Base implements I {",
        "  #secret() {}",
        "  static async m<T>(a: T): Promise<Token> { this.n(); foo(); new Zed(); function local() {} }",
        "  get g() { return 1; }",
        "}",
        "export abstract class AA { abstract z(): void; }",
        "interface I { m(): void }",
        "enum E { A }",
        "export const f = async (a: number) => a;",
        "const notAFunction = 3;",
        "namespace NS { export function h() { helper(); } }",
        "export function over(a: string): void;",
        "export function over(a: unknown) {}",
        "const obj = { method() { inObject(); } };",
        'describe("x", () => { const insideCallback = () => 1; function alsoInside() {} });',
        'class Q { "~validate"() {} }',
      ].join("\n"),
    );
    expect(p?.language).toBe("typescript");
    expect(sym(p)).toEqual(
      ["class AA", "class E", "class K", "class Q", "method Q.~validate", "function NS.h", "function f", "function lazy", "function over", "interface I", "method AA.z", "method K.#secret", "method K.g", "method K.m", "module NS"].sort(),
    );
    expect(p?.imports.sort()).toEqual(["./a", "./b", "./c"]);
    expect(uses(p?.calls)).toEqual(expect.arrayContaining(["K.m>n", "K.m>foo", "K.m>Zed", "NS.h>helper", "->inObject"]));
    expect(uses(p?.references)).toEqual(expect.arrayContaining(["K.m>Token", "K>I", "K>Base"]));
  });

  it("TSX and JavaScript (require, JSX) parse with their grammars", async () => {
    const tsx = await parseSyntax("ui/App.tsx", 'import React from "react";\nexport function App(): JSX.Element { return <div onClick={() => track()}>hi</div>; }\n');
    expect(sym(tsx)).toEqual(["function App"]);
    expect(uses(tsx?.calls)).toContain("App>track");
    const js = await parseSyntax("lib/x.cjs", 'const fs = require("./fs-helpers");\nclass Q { run() { go(); } }\nmodule.exports = { Q };\n');
    expect(js?.language).toBe("javascript");
    expect(sym(js)).toEqual(["class Q", "method Q.run"]);
    expect(js?.imports).toEqual(["./fs-helpers"]);
  });

  it("Python: classes, decorated methods, nested classes, relative imports per name, superclasses as references of the class", async () => {
    const p = await parseSyntax(
      "pkg/app.py",
      ["import os, a.b as c", "from . import sibling", "from ..core.mod import thing", "class A(Base):", "    @dec", "    def m(self):", "        self.n()", "        helper()", "    class Inner:", "        def k(self): pass", "def f():", "    def local(): pass", ""].join("\n"),
    );
    expect(sym(p)).toEqual(["class A", "class A.Inner", "function f", "method A.Inner.k", "method A.m"].sort());
    expect(p?.imports.sort()).toEqual(["..core.mod", ".sibling", "a.b", "os"].sort());
    expect(uses(p?.calls)).toEqual(expect.arrayContaining(["A.m>n", "A.m>helper"]));
    expect(uses(p?.references)).toContain("A>Base");
  });

  it("Go: the package, structs, interfaces, methods on pointer and generic receivers, import specs", async () => {
    const p = await parseSyntax(
      "util/util.go",
      ["package util", "import (", ' f "fmt"', ' "example.com/x"', ")", "type C struct{ d Dep }", "type I interface{ M() }", "type G[T any] struct{}", "func (c *C) Sum(a int) int { f.Println(); return Add(1) }", "func (g G[T]) X() {}", "func Add(a int) int { return 0 }", ""].join("\n"),
    );
    expect(p?.module).toBe("util");
    expect(sym(p)).toEqual(["class C", "class G", "function Add", "interface I", "method C.Sum", "method G.X"].sort());
    expect(p?.imports.sort()).toEqual(["example.com/x", "fmt"]);
    expect(uses(p?.calls)).toEqual(expect.arrayContaining(["C.Sum>Println", "C.Sum>Add"]));
    expect(uses(p?.references)).toContain("C>Dep");
  });

  it("Java: the package, classes, records, enums, nested classes, constructors, static and wildcard imports", async () => {
    const p = await parseSyntax(
      "src/App.java",
      ["package com.demo;", "import com.demo.util.Strings;", "import static java.lang.Math.*;", "public class App extends B implements I {", "  public App() {}", '  void m() { Strings.upper("x"); new Foo(); }', "  class Inner { void k() {} }", "}", "interface I { void m(); }", "enum E { A; void e() {} }", "record R(int a) {}", ""].join("\n"),
    );
    expect(p?.module).toBe("com.demo");
    expect(sym(p)).toEqual(["class App", "class App.Inner", "class E", "class R", "interface I", "method App.App", "method App.Inner.k", "method App.m", "method E.e"].sort());
    expect(p?.imports.sort()).toEqual(["com.demo.util.Strings", "java.lang.Math.*"]);
    expect(uses(p?.calls)).toEqual(expect.arrayContaining(["App.m>upper", "App.m>Foo"]));
    expect(uses(p?.references)).toEqual(expect.arrayContaining(["App>B", "App>I"]));
  });

  it("Rust: modules, structs, enums, traits and their methods, impl methods, use paths", async () => {
    const p = await parseSyntax(
      "src/lib.rs",
      ["mod a;", "mod b { pub fn inner() {} }", "use crate::a::b::{C, D};", "struct S { x: T }", "enum En { A }", "trait Tr { fn t(&self); }", "impl Tr for S { fn t(&self) { foo(); self.bar(); a::b(); } }", "impl<T> G<T> { fn g() {} }", "fn top() {}", ""].join("\n"),
    );
    expect(sym(p)).toEqual(["class En", "class S", "function b.inner", "function top", "interface Tr", "method G.g", "method S.t", "method Tr.t", "module a", "module b"].sort());
    expect(p?.imports.sort()).toEqual(["crate::a::b::{C,D}", "self::a"]);
    expect(uses(p?.calls)).toEqual(expect.arrayContaining(["S.t>foo", "S.t>bar", "S.t>b"]));
  });

  it("a file in no parsed language yields null; a broken file still yields what parses", async () => {
    expect(await parseSyntax("README.md", "# hi")).toBeNull();
    const p = await parseSyntax("x.ts", "export function ok() {}\nclass {{{ broken\n");
    expect(sym(p)).toContain("function ok");
  });
});

describe("the code graph from tree-sitter output", () => {
  it("links calls and references to the symbols they resolve to: own file, imported file, package peers; ambiguous names are left out", async () => {
    const files = {
      "src/store.ts": "export class TokenStore { get(k: string) { return k; } }\nexport function helper() {}\n",
      "src/auth.ts": 'import { TokenStore, helper } from "./store";\nexport class Auth { constructor(private s: TokenStore) {} check() { helper(); this.s.get("x"); local(); dup(); } }\nfunction local() {}\n',
      "a/one.go": "package a\nfunc One() { Two() }\n",
      "a/two.go": "package a\nfunc Two() {}\n",
      "src/lib.rs": "mod util;\nfn main() { util::run(); }\n",
      "src/util.rs": "pub fn run() {}\n",
      "x/a.ts": "export function dup() {}\n",
      "x/b.ts": "export function dup() {}\n",
    };
    const parsed = await Promise.all(Object.entries(files).map(async ([p, t]) => ({ path: p, parsed: await parseSyntax(p, t) })));
    const triples = await buildCodeGraph("repo1", "demo", parsed, null);
    const edges = triples.map((t) => `${t.subject.name} -${t.predicate}-> ${t.object.name}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        "src/auth.ts#Auth.check -calls-> src/store.ts#helper",
        "src/auth.ts#Auth.check -calls-> src/store.ts#TokenStore.get",
        "src/auth.ts#Auth.check -calls-> src/auth.ts#local",
        "src/auth.ts#Auth.constructor -references-> src/store.ts#TokenStore",
        "src/auth.ts -imports-> src/store.ts",
        "a/one.go#One -calls-> a/two.go#Two",
        "go:a -contains-> a/one.go",
        "src/lib.rs -imports-> src/util.rs",
        "src/lib.rs#main -calls-> src/util.rs#run",
      ]),
    );
    // `dup` is neither local nor imported, and declared twice in the snapshot: no guess.
    expect(edges.filter((x) => x.includes("#dup") && x.includes("-calls->"))).toEqual([]);
  });
});

/** A small multi-language repository on disk, for ingest, AI and fix job tests. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export const FIXTURE_FILES: Record<string, string> = {
  "src/auth.ts": [
    'import { TokenStore } from "./store";',
    'import type { Clock } from "./clock.js";',
    "",
    "/** Checks tokens. */",
    "export class AuthService {",
    "  constructor(private readonly store: TokenStore, private readonly clock: Clock) {}",
    "",
    "  async verifyToken(token: string): Promise<boolean> {",
    "    const t = this.store.get(token);",
    "    return t !== undefined && t.expires > this.clock.now();",
    "  }",
    "",
    "  revoke(token: string): void {",
    "    this.store.delete(token);",
    "  }",
    "}",
    "",
    "export function hashPassword(password: string): string {",
    '  return "sha1:" + password;',
    "}",
    "",
  ].join("\n"),
  "src/store.ts": [
    "export class TokenStore {",
    "  private readonly tokens = new Map<string, { expires: number }>();",
    "  get(token: string) {",
    "    return this.tokens.get(token);",
    "  }",
    "  delete(token: string) {",
    "    this.tokens.delete(token);",
    "  }",
    "}",
    "",
    "export const makeStore = () => new TokenStore();",
    "",
  ].join("\n"),
  "src/clock.ts": "export interface Clock {\n  now(): number;\n}\n",
  "app.py": ["from lib import helper", "", "class Greeter:", "    def greet(self, name):", "        return helper(name)", "", "def main():", '    print(Greeter().greet("x"))', ""].join("\n"),
  "lib.py": ["def helper(name):", '    return "hello " + name', ""].join("\n"),
  "go.mod": "module example.com/demo\n\ngo 1.21\n",
  "main.go": ["package main", "", 'import (', '\t"fmt"', '\t"example.com/demo/util"', ")", "", "func main() {", "\tfmt.Println(util.Add(1, 2))", "}", ""].join("\n"),
  "util/util.go": ["package util", "", "type Calc struct{}", "", "func (c *Calc) Sum(a, b int) int { return a + b }", "", "func Add(a, b int) int { return a + b }", ""].join("\n"),
  "src/main/java/com/demo/App.java": [
    "package com.demo;",
    "",
    "import com.demo.util.Strings;",
    "",
    "public class App {",
    "    public static void main(String[] args) {",
    "        System.out.println(Strings.upper(\"x\"));",
    "    }",
    "",
    "    private int count(String s) {",
    "        return s.length();",
    "    }",
    "}",
    "",
  ].join("\n"),
  "src/main/java/com/demo/util/Strings.java": ["package com.demo.util;", "", "public final class Strings {", "    public static String upper(String s) {", "        return s.toUpperCase();", "    }", "}", ""].join("\n"),
  "README.md": "# demo\n",
};

export async function writeFixtureRepo(dir: string, files: Record<string, string> = FIXTURE_FILES): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
}

/**
 * A generated TypeScript project of `files` modules (`src/m<i>.ts`): each imports the three before
 * it, declares a class with four methods and three functions, and calls into what it imports — about
 * a dozen graph triples per file, the shape of an ordinary first ingest at scale.
 */
export async function writeGeneratedRepo(dir: string, files: number): Promise<void> {
  await mkdir(path.join(dir, "src"), { recursive: true });
  for (let i = 0; i < files; i++) {
    const deps = [i - 1, i - 2, i - 3].filter((d) => d >= 0);
    const lines = [
      ...deps.map((d) => `import { Service${d}, helper${d}a } from "./m${d}";`),
      "",
      `export class Service${i} {`,
      ...["open", "read", "write", "close"].map((m) => `  ${m}${i}(x: number): number {\n    return ${deps.length > 0 ? `helper${deps[0]}a(x) + ` : ""}x;\n  }`),
      "}",
      ...["a", "b", "c"].map((s) => `export function helper${i}${s}(x: number): number {\n  ${deps.map((d) => `new Service${d}().read${d}(x);`).join("\n  ")}\n  return x * ${i};\n}`),
      "",
    ];
    await writeFile(path.join(dir, "src", `m${i}.ts`), lines.join("\n"));
  }
}

import { describe, expect, it } from "vitest";
import { buildCodeGraph, DOC_PREDICATE } from "../../core/ingest/graph";
import { DOC_MAX_CHARS, fileDoc, symbolDoc } from "../../core/ingest/doc-comments";
import { parseSyntax } from "../../core/ingest/syntax";

const lines = (s: string) => s.split("\n");

describe("doc comments in the code graph", () => {
  it("reads a JSDoc block, line comments, decorators between, and Python docstrings", () => {
    const ts = lines(`/**\n * Verifies a bearer token.\n * @param t the token\n */\nexport function verifyToken(t: string) {}\n// Issues keys.\n// Shown once.\n@Injectable()\nclass Keys {}\nconst x = 1;\nfunction bare() {}`);
    expect(symbolDoc(ts, 5, "typescript")).toBe("Verifies a bearer token.");
    expect(symbolDoc(ts, 9, "typescript")).toBe("Issues keys. Shown once.");
    expect(symbolDoc(ts, 11, "typescript")).toBeUndefined();
    const py = lines(`"""Token checks."""\n\ndef verify(token,\n           key):\n    """Check a token against its hash.\n\n    Args:\n        token: the token\n    """\n    return True`);
    expect(fileDoc(py, "python")).toBe("Token checks.");
    expect(symbolDoc(py, 3, "python")).toBe("Check a token against its hash.");
  });

  it("drops lint directives and licence headers, bounds long text at a sentence", () => {
    expect(symbolDoc(lines("// eslint-disable-next-line no-console\nfunction f() {}"), 2, "typescript")).toBeUndefined();
    expect(fileDoc(lines("// SPDX-License-Identifier: MIT\nexport {}"), "typescript")).toBeUndefined();
    const long = `/** ${"A sentence about tokens. ".repeat(20)}*/`;
    const d = symbolDoc(lines(`${long}\nfunction f() {}`), 2, "typescript")!;
    expect(d.length).toBeLessThanOrEqual(DOC_MAX_CHARS);
    expect(d.endsWith(".")).toBe(true);
  });

  it("ingest links each documented symbol and file to a code.doc node, redacted like every name", async () => {
    const text = `/** Checks API keys. */\nimport { x } from "./y";\n\n/** Verifies a bearer token. Uses password=hunter2hunter2 for tests. */\nexport function verifyToken(t: string) { return t; }\n`;
    const parsed = await parseSyntax("auth.ts", text);
    const triples = await buildCodeGraph("repo", "r", [{ path: "auth.ts", parsed }], null);
    const docs = triples.filter((t) => t.predicate === DOC_PREDICATE);
    expect(docs.map((t) => [t.subject.name, t.object.type])).toEqual([
      ["auth.ts", "code.doc"],
      ["auth.ts#verifyToken", "code.doc"],
    ]);
    expect(docs[0]!.object.name).toBe("Checks API keys.");
    expect(docs[1]!.object.name).toMatch(/^Verifies a bearer token\./);
    expect(docs[1]!.object.name).not.toContain("hunter2hunter2");
  });
});

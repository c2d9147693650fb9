/**
 * The tree-sitter grammars of ingest (WRK-2): web-tree-sitter's runtime and
 * the prebuilt wasm grammars of `@repomix/tree-sitter-wasms` (built with
 * tree-sitter-cli 0.26, ABI 14/15, which web-tree-sitter 0.27 loads). Both
 * ship in npm packages: nothing is downloaded at run time.
 *
 * Lazy on purpose: nothing here runs at import. The runtime is imported and
 * initialised the first time an ingest job parses a file, and each grammar is
 * loaded the first time a file of its language is seen, so a process that
 * never ingests (the API, other pools) never holds a parser in memory.
 */
import { createRequire } from "node:module";
import type { Language, Parser } from "web-tree-sitter";

/** The grammar (wasm stem) of each language ingest parses. */
export const GRAMMARS = {
  typescript: "typescript",
  tsx: "tsx",
  javascript: "javascript",
  python: "python",
  go: "go",
  java: "java",
  rust: "rust",
} as const;

export type Grammar = keyof typeof GRAMMARS;

const require = createRequire(import.meta.url);

let runtime: Promise<typeof import("web-tree-sitter")> | null = null;
const languages = new Map<Grammar, Promise<Language>>();
const parsers = new Map<Grammar, Parser>();

function loadRuntime(): Promise<typeof import("web-tree-sitter")> {
  runtime ??= (async () => {
    const ts = await import("web-tree-sitter");
    await ts.Parser.init();
    return ts;
  })();
  runtime.catch(() => {
    runtime = null;
  });
  return runtime;
}

/** The grammars loaded so far in this process (the ingest bench and tests look). */
export function loadedGrammars(): Grammar[] {
  return [...parsers.keys()];
}

/** One parser per grammar, created (and its wasm loaded) on first use. */
export async function parserFor(grammar: Grammar): Promise<Parser> {
  const have = parsers.get(grammar);
  if (have) return have;
  const ts = await loadRuntime();
  let lang = languages.get(grammar);
  if (!lang) {
    lang = ts.Language.load(require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${GRAMMARS[grammar]}.wasm`));
    languages.set(grammar, lang);
    lang.catch(() => languages.delete(grammar));
  }
  const parser = new ts.Parser();
  parser.setLanguage(await lang);
  parsers.set(grammar, parser);
  return parser;
}

/**
 * The input boundary (HTTP-6): what a caller's string may hold before it goes
 * anywhere near a store. One rule, in two strengths:
 *
 *   id    IDs, names and refs (sessions, repositories, jobs, uploads, facts,
 *         nodes, entity names, paths, URLs, email) and every path segment:
 *         no C0 or C1 control character (U+0000-U+001F, U+007F-U+009F), no
 *         lone UTF-16 surrogate, at most its bound.
 *   text  free text (questions, queries, turns, sources, passwords): the same,
 *         except that tab, line feed and carriage return are kept.
 *
 * PostgreSQL refuses U+0000 in text and jsonb, and a lone surrogate cannot be
 * encoded as UTF-8: either would otherwise surface as a 5xx. Every JSON body
 * (api/http.ts parseWith) and every MCP tool's arguments (api/mcp/server.ts)
 * are scanned whole with the text rule before their schema runs; the zod
 * builders below apply the field's own rule and bound. Refusals are 400
 * `validation_failed` naming the field path, never the value.
 */
import { z } from "zod";
import { MAX_ID_CHARS, MAX_JSON_DEPTH } from "./limits";

/**
 * The two rules as one regular expression each (unicode mode: a well-formed surrogate pair is one
 * code point outside U+D800-U+DFFF, a lone surrogate is inside it).
 */
// eslint-disable-next-line no-control-regex
const SAFE_ID = /^[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]*$/u;
// eslint-disable-next-line no-control-regex
const SAFE_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]*$/u;

/**
 * The same rules as the `pattern` the OpenAPI document gives every ID, name and text field, so a
 * client, a generator or a fuzzer knows what the server applies. The surrogate range is left out
 * of them: a JSON text in UTF-8 cannot carry a lone surrogate but as a `\uD800` escape, JSON
 * Schema validators (and the regex engines of some) do not accept surrogates in a pattern, and
 * the server refuses one all the same.
 */
export const SAFE_ID_PATTERN = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$";
export const SAFE_TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$";

/** White space as JavaScript's trim counts it, control characters aside: what a blank text is made of. */
const BLANK = "\\u0020\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
/** Text under the text rule with at least one character that is neither white space nor a control character. */
export const NON_BLANK_TEXT_PATTERN =
  "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*" +
  `[^\\u0000-\\u001F\\u007F-\\u009F${BLANK}]` +
  "[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$";

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The message of a refused value: fixed, never the value. */
export const UNSAFE_STRING_MESSAGE = "must not contain control characters or unpaired surrogates";

/** True when `s` may be an ID, a name or a ref (no control character, well-formed UTF-16). */
export function isSafeId(s: string): boolean {
  return SAFE_ID.test(s);
}

/** True when `s` may be free text (tab, line feed and carriage return allowed). */
export function isSafeText(s: string): boolean {
  return SAFE_TEXT.test(s);
}

/** An ID, name or ref field: 1..max characters under the id rule. */
export function idString(max: number = MAX_ID_CHARS) {
  return z.string().min(1).max(max).regex(SAFE_ID, { message: UNSAFE_STRING_MESSAGE }).meta({ pattern: SAFE_ID_PATTERN });
}

/** A free-text field: at most max characters under the text rule (add .min(1) where empty is refused). */
export function textString(max: number) {
  return z.string().max(max).regex(SAFE_TEXT, { message: UNSAFE_STRING_MESSAGE }).meta({ pattern: SAFE_TEXT_PATTERN });
}

/** An ID-rule string with at least one character that is not white space (names are trimmed where they are stored). */
export const NON_BLANK_ID_PATTERN = `^[^\\u0000-\\u001F\\u007F-\\u009F]*[^\\u0000-\\u001F\\u007F-\\u009F${BLANK}][^\\u0000-\\u001F\\u007F-\\u009F]*$`;

/** A name that must say something: the ID rule, and not only white space (the document: NON_BLANK_ID_PATTERN). */
export function nonBlankId(max: number) {
  return idString(max)
    .refine((v) => /[^\s\uFEFF]/.test(v), { message: "must not be blank" })
    .meta({ pattern: NON_BLANK_ID_PATTERN });
}

/** Free text that must say something: trimmed, at least one character left (the document: NON_BLANK_TEXT_PATTERN). */
export function nonBlankText(max: number) {
  return textString(max)
    .refine((v) => /[^\s\uFEFF]/.test(v), { message: "must not be blank" })
    .meta({ pattern: NON_BLANK_TEXT_PATTERN })
    .trim()
    .min(1);
}

export interface UnsafeValue {
  /** The field path ("turns.0.content"), or "(body)" for the value itself. */
  path: string;
  code: "invalid_string" | "too_deep";
}

/**
 * The first string (object key or value) of a JSON value that breaks the text
 * rule, or nesting deeper than MAX_JSON_DEPTH; null when the value is clean.
 * Iterative, so a body nested a hundred thousand levels deep cannot overflow the stack.
 */
export function findUnsafeValue(value: unknown, maxDepth: number = MAX_JSON_DEPTH): UnsafeValue | null {
  const stack: Array<{ v: unknown; path: Array<string | number> }> = [{ v: value, path: [] }];
  const at = (path: Array<string | number>) => (path.length === 0 ? "(body)" : path.join("."));
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (!isSafeText(v)) return { path: at(path), code: "invalid_string" };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.length >= maxDepth) return { path: at(path.slice(0, maxDepth)), code: "too_deep" };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
      continue;
    }
    for (const [k, child] of Object.entries(v)) {
      // The path is echoed: a key that is not a plain field name is shown as "(key)".
      const name = FIELD_NAME.test(k) ? k : "(key)";
      if (!isSafeText(k)) return { path: at([...path, name]), code: "invalid_string" };
      stack.push({ v: child, path: [...path, name] });
    }
  }
  return null;
}

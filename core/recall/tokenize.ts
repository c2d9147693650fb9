/**
 * Tokens for lexical recall: code identifiers are split on case changes,
 * digits, `_`, `.`, `/`, `-` and `:` (so `TokenStore.issue()` gives
 * `token`, `store`, `issue`), lower-cased, with a few stop words removed.
 */
const STOP = new Set(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "be", "by", "it", "as", "at", "with", "what", "which", "who", "how", "does", "do"]);

export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2");
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length === 0 || STOP.has(raw)) continue;
    out.push(raw);
  }
  return out;
}

/**
 * Tokens for recall.
 *
 * `tokenize` (lexical surface form): code identifiers are split on case
 * changes, digits, `_`, `.`, `/`, `-` and `:` (so `TokenStore.issue()` gives
 * `token`, `store`, `issue`), lower-cased, with a few stop words removed.
 *
 * `lexicalTerms` (what BM25 indexes and queries): the stemmed parts of
 * `tokenize`, plus, for an identifier made of several parts, the whole
 * identifier lower-cased (`tokenstore`) — so a query naming the exact
 * identifier scores above a document that merely contains its words.
 *
 * `stem` is a light, deterministic suffix stripper (no dictionary), Porter
 * step 1–2 in spirit: plural `-s/-es/-ies`; a final `-e`; then repeatedly
 * `-ation/-ator/-ment/-ness/-ing/-ion/-ed/-er/-or/-at/-iv/-iz` while at least
 * three letters with a vowel remain; a final `-e` and a doubled final
 * consonant; last, a few Lovins-style recodings of the stem's end (`-ert` →
 * `-ers`, `-end` → `-ens`, `-cid` → `-cis`, `-lud` → `-lus`, `-pand` →
 * `-pans`) so a verb meets its `-sion` noun. It conflates
 * `invoices`/`invoice`, `caching`/`cache`/`cached`, `scanner`/`scanning`,
 * `shipping`/`ships`, `convert`/`converter`/`conversion`,
 * `validate`/`validator`/`validation`, `serializer`/`serialization`,
 * `extend`/`extension`; it does not try to be Porter.
 */
const STOP = new Set(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "be", "by", "it", "as", "at", "with", "what", "which", "who", "how", "does", "do", "where", "when", "that", "this", "from", "into", "its", "i", "we", "our", "my"]);

function splitIdentifier(word: string): string[] {
  const spaced = word
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2");
  return spaced
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
}

export function tokenize(text: string): string[] {
  return splitIdentifier(text).filter((t) => !STOP.has(t));
}

const VOWEL = /[aeiouy]/;

/** Suffixes removed repeatedly (longest listed first), while ≥3 letters with a vowel remain. */
const SUFFIXES = ["ation", "ator", "ment", "ness", "ing", "ion", "ed", "er", "or", "at", "iv", "iz"];
/**
 * Lovins-style recodings of a stem's end, so a verb and its `-sion` noun meet
 * (`convert`/`conversion`, `extend`/`extension`, `decide`/`decision`,
 * `include`/`inclusion`, `expand`/`expansion`).
 */
const RECODE: Array<[RegExp, string]> = [
  [/ert$/, "ers"],
  [/(.{3})end$/, "$1ens"],
  [/cid$/, "cis"],
  [/lud$/, "lus"],
  [/pand$/, "pans"],
];

export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /[0-9]/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of SUFFIXES) {
      const base = w.slice(0, -suffix.length);
      if (w.endsWith(suffix) && base.length >= 3 && VOWEL.test(base)) {
        w = base;
        changed = true;
        break;
      }
    }
  }
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ss|ll|zz)$/.test(w)) w = w.slice(0, -1);
  for (const [from, to] of RECODE) if (from.test(w)) return w.replace(from, to);
  return w;
}

/** BM25 terms: stemmed identifier parts plus whole multi-part identifiers. */
export function lexicalTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[\s,;()[\]{}"'`?!]+/)) {
    if (word.length === 0) continue;
    const parts = splitIdentifier(word);
    for (const p of parts) if (!STOP.has(p)) out.push(stem(p));
    if (parts.length > 1) out.push(parts.join(""));
  }
  return out;
}

/**
 * Word-level similarity of two statements, for repeats and for finding the
 * statement a correction replaces: stemmed content words (code identifiers
 * split into their parts, stop words and correction cue words left out).
 */
import { lexicalTerms } from "../../recall/tokenize";

const CUE_WORDS = new Set(
  "now not no longer anymore any more instead actual actually switch switched switching move moved migrate migrated change changed replace replaced use used using rather correction update wrong turn turns out scratch ignore said mistake we us they it is are was were be been".split(" ").map((w) => w.toLowerCase()),
);

export function contentTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of lexicalTerms(text)) if (t.length > 1 && !CUE_WORDS.has(t)) out.add(t);
  return out;
}

export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const n = overlap(a, b);
  return n / (a.size + b.size - n);
}

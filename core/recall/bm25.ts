/**
 * Bounded BM25 (VEC-3). Scores at most MAX_BM25_DOCUMENTS documents per call
 * (the scoped candidate pool), with the usual k1/b parameters, over
 * `lexicalTerms` (stemmed identifier parts + whole identifiers). Pure: no I/O.
 */
import { MAX_BM25_DOCUMENTS } from "../limits";
import { lexicalTerms } from "./tokenize";

export interface LexicalDoc {
  id: string;
  text: string;
}

export interface Ranked {
  id: string;
  score: number;
}

export function bm25(docs: LexicalDoc[], query: string, opts: { limit: number; k1?: number; b?: number }): Ranked[] {
  const k1 = opts.k1 ?? 1.2;
  const b = opts.b ?? 0.75;
  const pool = docs.slice(0, MAX_BM25_DOCUMENTS);
  const qTerms = [...new Set(lexicalTerms(query))];
  if (qTerms.length === 0 || pool.length === 0) return [];
  const tokenized = pool.map((d) => lexicalTerms(d.text));
  const avgLen = tokenized.reduce((n, t) => n + t.length, 0) / pool.length || 1;
  const wanted = new Set(qTerms);
  const df = new Map<string, number>();
  for (const terms of tokenized) for (const t of new Set(terms)) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const N = pool.length;
  const out: Ranked[] = [];
  tokenized.forEach((terms, i) => {
    const tf = new Map<string, number>();
    for (const t of terms) if (df.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const [t, f] of tf) {
      const n = df.get(t)!;
      const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * terms.length) / avgLen));
    }
    if (score > 0) out.push({ id: pool[i]!.id, score });
  });
  out.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  return out.slice(0, opts.limit);
}

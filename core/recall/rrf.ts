/**
 * Reciprocal-rank fusion: score(d) = Σ over lists of 1 / (k + rank(d)), rank
 * starting at 1. Lists are best-first. Ties break by ID for determinism.
 */
import type { Ranked } from "./bm25";

export const RRF_K = 60;

export function rrf(lists: Array<Array<{ id: string }>>, opts: { k?: number; limit: number }): Ranked[] {
  const k = opts.k ?? RRF_K;
  const score = new Map<string, number>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.id)) return;
      seen.add(item.id);
      score.set(item.id, (score.get(item.id) ?? 0) + 1 / (k + i + 1));
    });
  }
  return [...score.entries()]
    .map(([id, s]) => ({ id, score: s }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, opts.limit);
}

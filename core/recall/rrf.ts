/**
 * Reciprocal-rank fusion: score(d) = Σ over lists of 1 / (k + rank(d)), rank
 * starting at 1. Lists are best-first.
 *
 * Tie-aware: items of one list with equal scores (relative difference ≤ 1e-9)
 * share the average of the ranks they occupy (fractional ranking), so a tie
 * inside one list is broken by the other lists rather than by ID order — BM25
 * produces large tie groups (many facts matching the same single term), and
 * an ID-ordered rank inside such a group is noise, not evidence. Items without
 * a score are ranked by position. The fused order breaks remaining ties by ID
 * for determinism. k = 60 (the usual default) unless the caller's settings say
 * otherwise; see docs/memory.md for the dev split sweep.
 *
 * Weighted: list i contributes w_i / (k + rank); k and the weights come from the
 * labelled recall sets, per embedder and kind of memory (`Fusion`, ./recall.ts).
 */
import type { Ranked } from "./bm25";

export const RRF_K = 60;

function sameScore(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** 1-based fractional ranks of a best-first list (first occurrence of each ID only). */
export function fractionalRanks(list: Array<{ id: string; score?: number }>): Map<string, number> {
  const items: Array<{ id: string; score?: number }> = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    items.push(item);
  }
  const ranks = new Map<string, number>();
  for (let start = 0; start < items.length; ) {
    let end = start;
    while (end + 1 < items.length && sameScore(items[end + 1]!.score, items[start]!.score)) end++;
    const rank = (start + 1 + (end + 1)) / 2;
    for (let i = start; i <= end; i++) ranks.set(items[i]!.id, rank);
    start = end + 1;
  }
  return ranks;
}

export function rrf(lists: Array<Array<{ id: string; score?: number }>>, opts: { k?: number; limit: number; weights?: number[] }): Ranked[] {
  const k = opts.k ?? RRF_K;
  const score = new Map<string, number>();
  lists.forEach((list, i) => {
    const w = opts.weights?.[i] ?? 1;
    if (!(w > 0)) return;
    for (const [id, rank] of fractionalRanks(list)) score.set(id, (score.get(id) ?? 0) + w / (k + rank));
  });
  return [...score.entries()]
    .map(([id, s]) => ({ id, score: s }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, opts.limit);
}

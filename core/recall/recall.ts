/**
 * Hybrid recall (VEC-2, VEC-3), pure parts shared by session and repository
 * memory:
 *  - `lexicalRanking`: bounded BM25 over each fact's scoped names, aliases,
 *    types (and predicate words) of both endpoints;
 *  - `checkHits`: the VEC-2 recheck — a vector hit survives only if tenant,
 *    session and namespace equal the caller's, it has not expired, its score
 *    is a finite number in [-1, 1], and its entity is in the fresh snapshot;
 *  - `denseRanking`: a fact scores the sum of its endpoints' surviving
 *    similarities (clipped at 0);
 *  - `fuseRankings`: reciprocal-rank fusion of the two, with the settings of
 *    the kind of memory (`Fusion`), then at most `perNode` facts per node
 *    before the rest (`diversify`).
 * With no vector hits (no embedder, failed embedding, empty index) the dense
 * list is empty and the fused ranking is the lexical one.
 */
import { bm25, type Ranked } from "./bm25";
import { RRF_K, rrf } from "./rrf";
import type { ScopeKey } from "../memory/types";
import type { VectorHit } from "../memory/vector-index";

export interface EntityView {
  id: string;
  name: string;
  type: string;
  aliases?: string[];
}

export interface FactView {
  fact_id: string;
  subject: EntityView;
  predicate: string;
  object: EntityView;
}

export interface RecallResult extends FactView {
  score: number;
}

function entityText(e: EntityView): string {
  return [e.name, ...(e.aliases ?? []), e.type].join(" ");
}

export function factText(f: FactView): string {
  return `${entityText(f.subject)} ${f.predicate.replace(/_/g, " ")} ${entityText(f.object)}`;
}

export function lexicalRanking(facts: FactView[], query: string, limit: number): Ranked[] {
  return bm25(
    facts.map((f) => ({ id: f.fact_id, text: factText(f) })),
    query,
    { limit },
  );
}

/** VEC-2: keeps the hits that belong to `key`, are live at `now` and name an entity of the fresh snapshot. */
export function checkHits(hits: VectorHit[], key: ScopeKey, now: number, entityIds: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of hits) {
    if (h.tenant_id !== key.tenant_id || h.session_id !== key.session_id || h.ns !== key.ns) continue;
    if (!Number.isFinite(h.expires_at) || h.expires_at <= now) continue;
    if (typeof h.score !== "number" || !Number.isFinite(h.score) || h.score < -1.0001 || h.score > 1.0001) continue;
    if (!entityIds.has(h.id)) continue;
    out.set(h.id, Math.max(out.get(h.id) ?? -Infinity, h.score));
  }
  return out;
}

export function denseRanking(facts: FactView[], sims: ReadonlyMap<string, number>, limit: number): Ranked[] {
  if (sims.size === 0) return [];
  const out: Ranked[] = [];
  for (const f of facts) {
    const s = Math.max(0, sims.get(f.subject.id) ?? 0) + Math.max(0, sims.get(f.object.id) ?? 0);
    if (s > 0) out.push({ id: f.fact_id, score: s });
  }
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return out.slice(0, limit);
}

/**
 * The kinds of memory recall ranks, each fused with its own measured settings: the code graph an
 * ingest builds (repository memory: names, kinds, doc comments) and what a thread said (session
 * memory: statements, decisions, people and events).
 */
export type MemoryKind = "code" | "conversation";

/** How the two lists are fused for one kind of memory. */
export interface Fusion {
  /** RRF's constant: a small k lets the first places of each list count more. */
  k: number;
  /** The dense list's weight against BM25's 1. */
  denseWeight: number;
  /** At most this many facts touching one node come before the rest of the list; 0 = no cap. */
  perNode: number;
}

export type FusionByKind = Readonly<Record<MemoryKind, Fusion>>;

/** Equal weights, k = 60, no cap: for an embedder with no measured settings (and hashing). */
export const DEFAULT_FUSION: Fusion = { k: RRF_K, denseWeight: 1, perNode: 0 };

/** Weighted RRF: BM25 weighs 1, the dense list `fusion.denseWeight`, constant `fusion.k`. */
export function fuseRankings(lexical: Ranked[], dense: Ranked[], limit: number, fusion: Fusion = DEFAULT_FUSION): Ranked[] {
  return rrf([lexical, dense], { limit, k: fusion.k, weights: [1, fusion.denseWeight] });
}

/**
 * At most `perNode` facts touching any one node (subject or object) keep their places; the
 * others follow, in their order, after every fact that kept its place. A file that matches a
 * query well otherwise fills the first places with its `contains` facts, one per member.
 */
export function diversify<T extends { id: string }>(ranked: T[], nodesOf: (id: string) => readonly string[], perNode: number): T[] {
  if (perNode <= 0) return ranked;
  const seen = new Map<string, number>();
  const kept: T[] = [];
  const later: T[] = [];
  for (const r of ranked) {
    const nodes = nodesOf(r.id);
    if (nodes.some((n) => (seen.get(n) ?? 0) >= perNode)) {
      later.push(r);
      continue;
    }
    for (const n of nodes) seen.set(n, (seen.get(n) ?? 0) + 1);
    kept.push(r);
  }
  return [...kept, ...later];
}

/** Ranks facts and hydrates the winners from the same (fresh) fact list. */
export function rankFacts(
  facts: FactView[],
  query: string,
  sims: ReadonlyMap<string, number>,
  limit: number,
  mode: "fused" | "lexical" | "dense" = "fused",
  fusion: Fusion = DEFAULT_FUSION,
): RecallResult[] {
  const pool = Math.max(limit * 4, 50);
  const lexical = mode === "dense" ? [] : lexicalRanking(facts, query, pool);
  const dense = mode === "lexical" ? [] : denseRanking(facts, sims, pool);
  const byId = new Map(facts.map((f) => [f.fact_id, f]));
  const nodesOf = (id: string) => {
    const f = byId.get(id);
    return f ? [f.subject.id, f.object.id] : [];
  };
  const ranked =
    mode === "lexical"
      ? lexical.slice(0, limit)
      : mode === "dense"
        ? dense.slice(0, limit)
        : diversify(fuseRankings(lexical, dense, pool, fusion), nodesOf, fusion.perNode).slice(0, limit);
  const out: RecallResult[] = [];
  for (const r of ranked) {
    const f = byId.get(r.id);
    if (f) out.push({ ...f, score: Number(r.score.toFixed(6)) });
  }
  return out;
}

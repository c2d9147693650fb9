/**
 * Durable recall: bounded BM25 over candidate facts plus exact dense
 * similarity over embedded nodes, fused by RRF; with `asOf`, over what the
 * repository held then (live facts learned by then and history intervals that
 * contain it).
 */
import { AppError } from "../errors";
import type { Identity } from "../execution/identity";
import { MAX_RECALL_LIMIT } from "../limits";
import { rankFacts, type RecallResult } from "../recall/recall";
import { tokenize } from "../recall/tokenize";
import { assertAuthorisedIdentity, type Embedder } from "./embedder";
import { repoCurrentAt, repoHistoryOf } from "./repository-history";
import type { RepoFact, RepositoryMemoryStore } from "./repository-store";
import { versionAsFact } from "./repository-views";
import { cosine } from "./vector-index";

/** Bounds of one durable recall: lexical candidates and embedded nodes scanned. */
export const REPO_RECALL_CANDIDATES = 2000;
export const REPO_DENSE_SCAN = 5000;
/** Dense hits of one durable recall that join the fusion. */
export const REPO_DENSE_HITS = 64;

export async function recallRepository(
  deps: { repo: RepositoryMemoryStore; embedder?: Embedder | undefined; onWarning?: (event: string, code: string) => void },
  identity: Identity,
  repoId: string,
  input: { query: string; limit?: number | undefined; mode?: "fused" | "lexical" | "dense"; asOf?: number | undefined },
): Promise<{ results: RecallResult[] }> {
  assertAuthorisedIdentity(identity);
  const limit = Math.min(Math.max(1, input.limit ?? 10), MAX_RECALL_LIMIT);
  const tokens = [...new Set(tokenize(input.query))].slice(0, 32);
  // The lexical candidates do not depend on the query's vector: the store reads them while it is embedded.
  const lexicalRead = deps.repo.factsMatching(repoId, tokens, REPO_RECALL_CANDIDATES);
  lexicalRead.catch(() => undefined);
  const sims = new Map<string, number>();
  const { embedder } = deps;
  if (embedder && input.mode !== "lexical") {
    try {
      const [q] = await embedder.embed(identity, [input.query]);
      const store = deps.repo;
      // Scored where the vectors live when the store can (PostgreSQL/PGlite); in process otherwise.
      const scored = store.nearestEmbeddings
        ? await store.nearestEmbeddings(repoId, embedder.model, q!, REPO_DENSE_HITS, REPO_DENSE_SCAN)
        : (await store.embeddings(repoId, embedder.model, REPO_DENSE_SCAN)).map((n) => ({ id: n.id, score: cosine(q!, n.vector) }));
      const usable = scored.filter((x) => Number.isFinite(x.score) && x.score > 0);
      usable.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      for (const s of usable.slice(0, REPO_DENSE_HITS)) sims.set(s.id, s.score);
    } catch (err) {
      deps.onWarning?.("vector_search_failed", err instanceof AppError ? err.code : "internal");
    }
  }
  const lexical = await lexicalRead;
  const dense = sims.size > 0 ? await deps.repo.factsTouching(repoId, [...sims.keys()], REPO_RECALL_CANDIDATES) : [];
  let candidates: RepoFact[] = [...lexical, ...dense];
  if (input.asOf !== undefined) {
    // What the repository held then: live facts learned by then, and history intervals that contain it,
    // drawn by the same lexical (endpoint names) and dense (touching the nearest nodes) rules.
    const asOf = input.asOf;
    const words = tokens.map((t) => t.toLowerCase());
    const touches = (n: { id: string; name: string }) => sims.has(n.id) || words.some((t) => n.name.toLowerCase().includes(t));
    const past = repoHistoryOf((await deps.repo.loadMeta(repoId)).doc).filter((v) => repoCurrentAt(v, asOf) && (touches(v.subject) || touches(v.object)));
    candidates = [...candidates.filter((f) => repoCurrentAt(f, asOf)), ...past.map(versionAsFact)];
  }
  const facts = new Map(candidates.map((f) => [f.fact_id, f]));
  const ranked = rankFacts([...facts.values()], input.query, sims, limit, input.mode ?? "fused", embedder?.fusion?.code);
  // Validity stays out of recall's answer (its shape is the session's); the history read shows it.
  return { results: ranked.map(({ valid_from: _v, observed_at: _o, ...r }: RecallResult & { valid_from?: number; observed_at?: number }) => r) };
}

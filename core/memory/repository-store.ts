/**
 * RepositoryMemoryStore (MEM-6): the durable graph shared by everyone with
 * permission on a repository — code nodes and memory entities carry the
 * `Node` label, durable facts are `FACT` edges. New writes record
 * `origin_session_id` (the writing session); records written without one keep
 * `null` — no session is ever fabricated for them. Permission is checked by
 * the caller (core/authorize.ts) before any call here.
 *
 * Implemented in memory and PostgreSQL (db/graph/*); Neo4j/HugeGraph next.
 * Each adapter enforces MAX_REPO_NODES / MAX_REPO_FACTS inside its own
 * transaction, under a per-repository lock.
 */
import type { Tx } from "../../db/schema";
import type { FactView } from "../recall/recall";

export const NODE_LABEL = "Node";
export const FACT_LABEL = "FACT";

export interface RepoNode {
  id: string;
  label: string;
  name: string;
  type: string;
  origin_session_id: string | null;
}

export interface RepoFact extends FactView {
  origin_session_id: string | null;
  source?: string;
}

/** A validated, redacted triple with its node IDs already derived (repoNodeId / repoFactId). */
export interface DurableTriple {
  fact_id: string;
  subject: { id: string; name: string; type: string };
  predicate: string;
  object: { id: string; name: string; type: string };
  source?: string | undefined;
}

export interface Subgraph {
  nodes: RepoNode[];
  edges: Array<{ id: string; label: string; src: string; predicate: string; dst: string; origin_session_id: string | null }>;
}

/** A job attempt that writes staged rows: its id and lease token (the fence of every step). */
export interface StageFence {
  jobId: string;
  token: string;
}

/**
 * Staged writes of a whole graph (a store in the relational database: db/graph/postgres/generations.ts).
 * `open` takes the repository's generation for this attempt; `stage` adds rows to it, invisible
 * to every reader, inside the caller's short fenced transaction; `publish`, inside the job's fenced
 * finish, makes them all visible at once and prunes the `gone` edges of `source` (and the nodes of
 * `orphanTypePrefix` they leave without an edge); `compact` tidies up afterwards.
 */
export interface GraphStaging {
  open(repoId: string, fence: StageFence, step: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>, now: () => Date, signal?: AbortSignal): Promise<string>;
  stage(tx: Tx, repoId: string, gen: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number): Promise<void>;
  /** The ids of the visible edges written with `source`. */
  sourceEdgeIds(repoId: string, source: string): Promise<string[]>;
  publish(tx: Tx, repoId: string, gen: string, fence: StageFence, prune: { source: string; gone: string[]; orphanTypePrefix: string }, now: Date): Promise<{ published: boolean; edges: number; nodes: number }>;
  compact(gen: string): Promise<boolean>;
}

export interface RepositoryMemoryStore {
  readonly kind: string;
  /** Optional: staged writes of a whole graph, published at once (an ingest's; see GraphStaging). */
  readonly staging?: GraphStaging;
  /**
   * The same store, writing inside the caller's transaction: a store kept in the relational
   * database implements it, so a job's writes commit with its fenced finish or not at all
   * (docs/jobs.md "Writes are fenced").
   */
  inTransaction?(tx: Tx): RepositoryMemoryStore;
  /** Upserts nodes and facts atomically; existing records keep their origin. Returns the facts' IDs. */
  upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number): Promise<string[]>;
  /** Nodes whose name contains every token (case-insensitive), at most `limit`. */
  searchNodes(repoId: string, tokens: string[], limit: number): Promise<RepoNode[]>;
  /** The node and everything within `depth` hops (both directions), at most `limit` edges. */
  querySubgraph(repoId: string, nodeId: string, depth: number, limit: number): Promise<Subgraph>;
  /** FACT edges with an endpoint whose name contains any token, at most `limit` (lexical candidate pool). */
  factsMatching(repoId: string, tokens: string[], limit: number): Promise<RepoFact[]>;
  /** FACT edges touching any of these nodes, at most `limit`. */
  factsTouching(repoId: string, nodeIds: string[], limit: number): Promise<RepoFact[]>;
  /** Nodes with no embedding for `model`, at most `limit`. */
  nodesMissingEmbedding(repoId: string, model: string, limit: number): Promise<RepoNode[]>;
  setEmbeddings(repoId: string, model: string, vectors: Array<{ id: string; vector: number[] }>): Promise<void>;
  /**
   * Optional push-down of dense recall: the `limit` nodes nearest to `vector` (exact cosine) among
   * at most `scan` embedded nodes of `model`, scored where they are stored; only hits come back.
   */
  nearestEmbeddings?(repoId: string, model: string, vector: number[], limit: number, scan: number): Promise<Array<{ id: string; score: number }>>;
  /** Embedded nodes of `model`, at most `limit` (bounded exact similarity). */
  embeddings(repoId: string, model: string, limit: number): Promise<Array<{ id: string; vector: number[] }>>;
  /**
   * Re-ingest (WRK-2): under the repository lock, removes the FACT edges written with
   * `source` whose id is not in `keep`, then the nodes whose type starts with `orphanTypePrefix` and that no
   * edge touches any more. Memory facts (other sources) and the nodes they touch stay.
   */
  pruneSource(repoId: string, source: string, keep: string[], orphanTypePrefix: string): Promise<{ edges: number; nodes: number }>;
  /**
   * Erasure of what one session wrote (promoted or upserted), under the repository lock: removes the FACT
   * edges whose `origin_session_id` is the session, then that session's nodes no edge touches any more
   * (with their embeddings); nodes still used by other facts stay, with their origin set to null.
   */
  forgetOrigin(repoId: string, sessionId: string): Promise<{ edges: number; nodes: number }>;
}

/** What a job handler may use of the repository store while it runs: reads only. Its writes go through `persist`. */
export type RepositoryReader = Pick<
  RepositoryMemoryStore,
  "kind" | "searchNodes" | "querySubgraph" | "factsMatching" | "factsTouching" | "nodesMissingEmbedding" | "embeddings"
>;


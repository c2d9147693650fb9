/**
 * RepositoryMemoryStore (MEM-6): the durable graph shared by everyone with
 * permission on a repository — code nodes and memory entities carry the
 * `Node` label, durable facts are `FACT` edges. New writes record
 * `origin_session_id` (the writing session); records written without one keep
 * `null` — no session is ever fabricated for them. Permission is checked by
 * the caller (core/authorize.ts) before any call here.
 *
 * Implemented in memory, PostgreSQL, Neo4j and HugeGraph (db/graph/*). Each
 * adapter enforces MAX_REPO_NODES / MAX_REPO_FACTS inside its own
 * transaction, under a per-repository lock.
 *
 * Memory that changes: each repository has one small meta document
 * (`RepoMemoryDoc`: its fact history and single-valued predicates, checked by
 * core/memory/repository-history.ts) and a revision, kept with its lock
 * record. Every write under the lock bumps the revision; a write that ends
 * facts (supersession, retraction) passes a `RepoChange` naming the revision it
 * read, and the adapter refuses it (409 `revision_conflict`) if the revision
 * moved, so the decision which facts a write ends is made on what is stored.
 * The durable fact quota counts live facts plus history entries.
 */
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
  /** Epoch ms, platform clock: when the repository learned the fact (absent on facts stored before validity existed). */
  valid_from?: number;
  /** Epoch ms, the writer's clock, if it said. */
  observed_at?: number;
}

/** One interval during which a durable fact was current and then stopped being (superseded or retracted). */
export interface RepoFactVersion {
  fact_id: string;
  subject: { id: string; name: string; type: string };
  predicate: string;
  object: { id: string; name: string; type: string };
  source?: string;
  /** Epoch ms (0 when the fact predates validity). */
  valid_from: number;
  /** Epoch ms: when it stopped being current. */
  valid_to: number;
  observed_at?: number;
  /** The session that wrote the fact (its origin_session_id; null for a write without one). */
  session_id: string | null;
  /** The session whose write ended it (null once that session's writes were forgotten). */
  ended_by: string | null;
  ended: "superseded" | "retracted";
  replaced_by: string[];
}

/** The repository's meta document: history (oldest first) and single-valued predicates. */
export interface RepoMemoryDoc {
  history?: RepoFactVersion[];
  single_valued?: string[];
}

export interface RepoMeta {
  /** Bumped by every write under the repository lock; 0 before the first. */
  revision: number;
  doc: RepoMemoryDoc;
}

/** What a write that ends facts adds to an upsert: checked against the revision it read. */
export interface RepoChange {
  expectedRevision: number;
  /** Live FACT edges to remove (each must exist), with their subjects (graph stores find edges from their source node). */
  end: Array<{ fact_id: string; subject_id: string }>;
  /** The repository's meta document after the write (replaces the stored one). */
  doc: RepoMemoryDoc;
}

/** A validated, redacted triple with its node IDs already derived (repoNodeId / repoFactId). */
export interface DurableTriple {
  fact_id: string;
  subject: { id: string; name: string; type: string };
  predicate: string;
  object: { id: string; name: string; type: string };
  source?: string | undefined;
  /** Epoch ms: when the repository learned it (default: the write's `now`). */
  valid_from?: number | undefined;
  observed_at?: number | undefined;
}

/** What a forget removed: counts, and the removed facts' IDs (live edges and history entries). */
export interface ForgetResult {
  edges: number;
  nodes: number;
  history: number;
  fact_ids: string[];
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
export interface GraphStaging<Tx = any> {
  open(repoId: string, fence: StageFence, step: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>, now: () => Date, signal?: AbortSignal): Promise<string>;
  stage(tx: Tx, repoId: string, gen: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number): Promise<void>;
  /** The ids of the visible edges written with `source`. */
  sourceEdgeIds(repoId: string, source: string): Promise<string[]>;
  publish(tx: Tx, repoId: string, gen: string, fence: StageFence, prune: { source: string; gone: string[]; orphanTypePrefix: string }, now: Date): Promise<{ published: boolean; edges: number; nodes: number }>;
  compact(gen: string): Promise<boolean>;
}

/**
 * `Tx`: the relational database's transaction handle, for the stores kept there (`inTransaction`,
 * `staging`); core passes it through and never opens one, so it does not name its type (db/ does:
 * PostgresRepositoryStore is a `RepositoryMemoryStore<Tx>`). Unnamed, it is whatever handle the
 * caller holds.
 */
export interface RepositoryMemoryStore<Tx = any> {
  readonly kind: string;
  /** Optional: staged writes of a whole graph, published at once (an ingest's; see GraphStaging). */
  readonly staging?: GraphStaging<Tx>;
  /**
   * The same store, writing inside the caller's transaction: a store kept in the relational
   * database implements it, so a job's writes commit with its fenced finish or not at all
   * (docs/jobs.md "Writes are fenced").
   */
  inTransaction?(tx: Tx): RepositoryMemoryStore<Tx>;
  /**
   * Upserts nodes and facts atomically; existing records keep their origin and every other field. Returns the
   * facts' IDs. With `change`: refuses `revision_conflict` unless the revision is `change.expectedRevision`,
   * removes the `change.end` edges, stores `change.doc` (checked with `checkRepoDoc`) — all in the same transaction.
   */
  upsertFacts(repoId: string, triples: DurableTriple[], origin: { session_id: string | null }, now: number, change?: RepoChange): Promise<string[]>;
  /** The repository's meta document and revision (empty doc, revision 0, before any write). */
  loadMeta(repoId: string): Promise<RepoMeta>;
  /**
   * Live FACT edges whose ID is in `ids`, or whose subject is in `subjects` and predicate in `predicates`,
   * at most `limit`, ordered by ID.
   */
  factsSelected(repoId: string, sel: { ids: string[]; subjects: string[]; predicates: string[] }, limit: number): Promise<RepoFact[]>;
  /** Live FACT edges ordered by ID, after `after` (exclusive; "" from the start), at most `limit` (export). */
  factsPage(repoId: string, after: string, limit: number): Promise<RepoFact[]>;
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
   * (with their embeddings); nodes still used by other facts stay, with their origin set to null. Its
   * history entries go too, and entries it ended lose `ended_by`/`replaced_by` (`forgetInDoc`). Answers the
   * counts and the IDs of the facts removed (live and history), so what quotes them can be erased too.
   */
  forgetOrigin(repoId: string, sessionId: string): Promise<ForgetResult>;
}

/** What a job handler may use of the repository store while it runs: reads only. Its writes go through `persist`. */
export type RepositoryReader = Pick<
  RepositoryMemoryStore,
  "kind" | "searchNodes" | "querySubgraph" | "factsMatching" | "factsTouching" | "nodesMissingEmbedding" | "embeddings" | "loadMeta" | "factsSelected"
>;


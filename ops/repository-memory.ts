/**
 * The repository-memory operations (HTTP-4a, HTTP-4b, MCP-1a, MCP-4): the
 * repository's durable memory — triples, retraction, history, export and
 * import, forgetting a session's writes, embedding, node search, subgraphs.
 */
import { z } from "zod";
import { idString, textString } from "../core/boundary";
import {
  MAX_EMBED_BATCH,
  MAX_ENTITY_NAME_CHARS,
  MAX_GRAPH_SEARCH_LIMIT,
  MAX_REPO_HISTORY,
  MAX_REPO_TRANSFER_FACTS,
  MAX_IMPORT_CHARS,
  IMPORT_BODY_BYTES,
  MAX_SINGLE_VALUED_PREDICATES,
  MAX_SUBGRAPH_DEPTH,
  MAX_SUPERSEDES,
  MAX_SUBGRAPH_EDGES,
} from "../core/limits";
import type { ErasureReceipt } from "../core/memory/engine";
import { instant } from "../core/memory/input";
import { REPO_EXPORT_FORMAT } from "../core/memory/repository-transfer";
import { eraseJobsQuotingFacts } from "../queues/sql/eraseJobsQuotingFacts";
import { recordForgetErasure } from "../core/retention/receipts";
import { memoryOf, memoryOperation, REPOSITORY_ERRORS, withJobErasure } from "./memory";
import { factIds, repoNode, source, triples } from "./schemas";
import { asOf, erasureReceipt, repoFactHistory, repoFactId } from "./memory-schemas";

export const upsertGraphTriples = memoryOperation("repository", {
  name: "repository_memory.upsert",
  title: "Write durable repository facts",
  description:
    "Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the repository; each new " +
    "record notes this thread as origin_session_id. Needs write permission. For thread-private notes use upsert_session_facts. " +
    "To correct a durable fact, name it in supersedes, or declare the predicate single_valued for the repository (then a new " +
    "object for the same subject replaces the old fact, in this and later writes); replaced facts leave recall and reads and " +
    "stay in their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate, object_id}], superseded: [fact_id]}.",
  input: {
    triples,
    source,
    supersedes: z
      .array(repoFactId)
      .max(MAX_SUPERSEDES)
      .optional()
      .describe(`Up to ${MAX_SUPERSEDES} live durable fact_id values these triples replace. All or nothing: an ID that is not a live fact of this repository refuses the call (404).`),
    single_valued: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/))
      .max(MAX_SINGLE_VALUED_PREDICATES)
      .optional()
      .describe(`Predicates to declare single-valued in this repository's durable memory, for good (at most ${MAX_SINGLE_VALUED_PREDICATES}): one live object per subject.`),
    observed_at: z.iso.datetime({ offset: true }).optional().describe("When the writer observed these facts, if it knows better than the time of this call (not in the future)."),
  },
  output: z.strictObject({ facts: z.array(factIds), superseded: z.array(z.string()) }),
  level: "write",
  errors: [...REPOSITORY_ERRORS, "revision_conflict"],
  route: { method: "post", path: "/triples" },
  mcp: { tool: "upsert_graph_triples" },
  run: async (call, input) =>
    memoryOf(call).repository.upsertTriples(call.auth.identity, call.repo!.repoId, {
      triples: input.triples,
      source: input.source,
      supersedes: input.supersedes,
      single_valued: input.single_valued,
      observed_at: instant(input.observed_at, "observed_at"),
    }),
});

export const retractRepositoryFact = memoryOperation("repository", {
  name: "repository_memory.retract",
  title: "Retract a durable repository fact",
  description:
    "Takes one fact out of the repository's live DURABLE memory (write permission): recall and reads stop returning it; " +
    "its history keeps it with the time it was retracted and this thread as ended_by. An ID that is not a live fact of the " +
    "repository answers 404. Answers {fact_id, valid_to}.",
  input: { fact_id: repoFactId },
  output: z.strictObject({ fact_id: z.string(), valid_to: z.string() }),
  level: "write",
  errors: [...REPOSITORY_ERRORS, "revision_conflict"],
  route: { method: "delete", path: "/facts/:fact_id" },
  mcp: { tool: "retract_repository_fact", destructive: true },
  run: async (call, input) => memoryOf(call).repository.retract(call.auth.identity, call.repo!.repoId, input.fact_id),
});

export const repositoryFactHistory = memoryOperation("repository", {
  name: "repository_memory.history",
  title: "History of a durable repository fact",
  description:
    "Every interval during which one fact of the repository's DURABLE memory was current: who wrote it (origin_session_id), " +
    "when (valid_from, valid_to; null while current), why it stopped (superseded or retracted), by whose write (ended_by) " +
    `and which facts replaced it. Oldest first. A repository keeps at most ${MAX_REPO_HISTORY} ended intervals. Answers {fact_id, versions: [...]}.`,
  input: { fact_id: repoFactId },
  output: repoFactHistory,
  level: "read",
  errors: REPOSITORY_ERRORS,
  route: { method: "get", path: "/facts/:fact_id/history" },
  mcp: { tool: "repository_fact_history", readOnly: true },
  run: async (call, input) => memoryOf(call).repository.history(call.repo!.repoId, input.fact_id),
});

export const exportRepositoryMemory = memoryOperation("repository", {
  name: "repository_memory.export",
  title: "Export the repository's durable memory",
  description:
    "Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the nodes, the memory facts " +
    "with their validity and provenance (origin_session_id, source), the history and the single-valued predicates; no " +
    `embeddings, and not the code graph (ingest derives it from the checkout). At most ${MAX_REPO_TRANSFER_FACTS} memory facts. ` +
    "Import it into another repository with import_repository_memory. Answers {format, jsonl, nodes, facts, history}.",
  output: z.strictObject({ format: z.string(), jsonl: z.string(), nodes: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "read",
  errors: REPOSITORY_ERRORS,
  route: { method: "get", path: "/export" },
  mcp: { tool: "export_repository_memory", readOnly: true },
  async run(call) {
    const out = await memoryOf(call).repository.exportLines(call.repo!.repoId);
    return { format: REPO_EXPORT_FORMAT, jsonl: out.lines, nodes: out.nodes, facts: out.facts, history: out.history };
  },
});

export const importRepositoryMemory = memoryOperation("repository", {
  name: "repository_memory.import",
  title: "Import durable memory into the repository",
  bodyBytes: IMPORT_BODY_BYTES,
  description:
    "Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory (write permission), " +
    "which must hold no memory facts and no history yet (its code graph may be there). All or nothing: every line is " +
    "validated, names and sources are redacted, IDs are derived for this repository, and the repository's limits apply. " +
    "This thread becomes the origin of the imported facts; nodes are embedded again. Answers {nodes, facts, history}.",
  input: {
    jsonl: z.string().min(1).max(MAX_IMPORT_CHARS).describe(`The export's JSON Lines text (at most ${MAX_IMPORT_CHARS} characters).`),
  },
  output: z.strictObject({ nodes: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "write",
  errors: [...REPOSITORY_ERRORS, "revision_conflict"],
  route: { method: "post", path: "/import" },
  mcp: { tool: "import_repository_memory" },
  run: async (call, input) => memoryOf(call).repository.importLines(call.auth.identity, call.repo!.repoId, input.jsonl),
});

export const forgetSessionWrites = memoryOperation("repository", {
  name: "repository_memory.forget_session",
  title: "Forget what a session wrote to repository memory",
  description:
    "Repository admins: removes from the repository's DURABLE memory every fact one session promoted or wrote " +
    "(origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes other facts still use stay, " +
    "with their origin cleared, and its history entries; the results of that session's finished AI and fix jobs on the " +
    "repository are erased too, and so are other sessions' AI and fix results on the repository whose sources cite a " +
    "forgotten fact (their idempotency keys go). Answers an erasure receipt {scope: \"promoted\", session_id, stores: [{store, entities, facts, history, rows?, status}], done}.",
  input: { session_id: idString().describe("The session whose durable writes to forget (an origin_session_id).") },
  output: erasureReceipt,
  level: "admin",
  route: { method: "post", path: "/forget-session" },
  mcp: { tool: "forget_session_writes", destructive: true, idempotent: true },
  async run(call, input) {
    const { fact_ids: forgotten, ...receipt } = await memoryOf(call).repository.forgetSession(call.repo!.repoId, input.session_id);
    const target = { tenant_id: call.auth.identity.tenant_id, session_id: input.session_id, repo_id: call.repo!.repoId };
    const own = await withJobErasure(call, receipt, target, "session_forgotten");
    // The cascade: other sessions' AI/fix answers on this repository that cite a forgotten fact.
    const now = call.services.clock.now();
    const q = await eraseJobsQuotingFacts(call.services.db, target, forgotten, now, now);
    const stores: ErasureReceipt["stores"] = [
      ...own.stores,
      { store: "jobs:quoting-results", entities: 0, facts: 0, history: 0, rows: q.results + q.idempotency, status: q.pending > 0 ? "pending" : "done" },
    ];
    // Stored, with the forgotten fact IDs while anything is pending: the cleanup sweep finishes the pending
    // stores once the running jobs end (queues/memory-erasure.ts retryPendingErasures). A failed write is logged.
    await recordForgetErasure(call.services.stores.receipts, target, stores, forgotten, now).catch((err: unknown) =>
      call.services.logger.warn({ code: "erasure_receipt_failed", err: (err as Error).message }, "recording the forget erasure receipt failed"),
    );
    return { ...own, stores, done: stores.every((x) => x.status === "done") };
  },
});

export const indexRepositoryMemory = memoryOperation("repository", {
  name: "repository_memory.index",
  title: "Embed repository memory",
  description: `Embeds one bounded batch (1-${MAX_EMBED_BATCH}) of the repository memory's facts not yet embedded, under this execution. Answers {indexed, remaining}.`,
  input: { batch: z.number().int().min(1).max(MAX_EMBED_BATCH).optional() },
  output: z.object({ indexed: z.number().int(), remaining: z.boolean() }),
  level: "write",
  errors: REPOSITORY_ERRORS,
  route: { method: "post", path: "/index" },
  mcp: { tool: "index_repository_memory" },
  run: async (call, input) => memoryOf(call).repository.index(call.auth.identity, call.repo!.repoId, input.batch),
});

export const searchGraphNodes = memoryOperation("repository", {
  name: "repository_memory.search_nodes",
  title: "Search repository graph nodes",
  description:
    "Finds nodes of the repository's durable graph (code symbols, files and memory entities) whose name contains every word " +
    "of the query, case-insensitive. Answers {nodes: [{id, label, name, type, origin_session_id}]}; use a node id with query_subgraph.",
  input: {
    query: textString(MAX_ENTITY_NAME_CHARS).min(1).describe("Words the node name must contain."),
    limit: z.number().int().min(1).max(MAX_GRAPH_SEARCH_LIMIT).optional().describe("At most this many nodes (default 20)."),
  },
  output: z.object({ nodes: z.array(repoNode) }),
  level: "read",
  errors: REPOSITORY_ERRORS,
  route: { method: "get", path: "/nodes" },
  mcp: { tool: "search_graph_nodes", readOnly: true },
  run: async (call, input) => ({ nodes: await memoryOf(call).repository.searchNodes(call.repo!.repoId, input.query, input.limit ?? 20) }),
});

export const querySubgraph = memoryOperation("repository", {
  name: "repository_memory.subgraph",
  title: "Explore the repository graph around a node",
  description:
    `Returns a node of the repository's durable graph and everything within \`depth\` hops in both directions (1-${MAX_SUBGRAPH_DEPTH}, default 1), ` +
    "at most `limit` edges (default 100). Answers {nodes: [...], edges: [{id, label, src, predicate, dst, origin_session_id}]}.",
  input: {
    node_id: idString(MAX_ENTITY_NAME_CHARS).describe("A node id from search_graph_nodes or a fact's subject/object id."),
    depth: z.number().int().min(1).max(MAX_SUBGRAPH_DEPTH).optional(),
    limit: z.number().int().min(1).max(MAX_SUBGRAPH_EDGES).optional(),
    as_of: asOf.describe("Answer with the durable facts the repository held at this time (platform clock), including ones since superseded or retracted."),
  },
  output: z.object({
    nodes: z.array(repoNode),
    edges: z.array(z.object({ id: z.string(), label: z.string(), src: z.string(), predicate: z.string(), dst: z.string(), origin_session_id: z.string().nullable() })),
  }),
  level: "read",
  errors: REPOSITORY_ERRORS,
  route: { method: "get", path: "/subgraph" },
  mcp: { tool: "query_subgraph", readOnly: true },
  async run(call, input) {
    const g = await memoryOf(call).repository.querySubgraph(call.repo!.repoId, input.node_id, input.depth ?? 1, input.limit ?? 100, instant(input.as_of, "as_of"));
    return { nodes: g.nodes, edges: g.edges };
  },
});

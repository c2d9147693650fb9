/**
 * Session and repository memory operations (HTTP-4, HTTP-4a, HTTP-4b, MCP-1,
 * MCP-1a, MCP-4). Each takes `repo` (id, or name in the caller's
 * organisation) and declares the repository permission it needs. The session
 * namespace is the repository; the session is the caller's registered primary
 * session — never an argument, never the MCP transport ID.
 */
import { z } from "zod";
import { authorize } from "../core/authorize";
import { idString, textString } from "../core/boundary";
import { AppError } from "../core/errors";
import {
  MAX_EMBED_BATCH,
  MAX_ENTITY_NAME_CHARS,
  MAX_GRAPH_SEARCH_LIMIT,
  MAX_MEMORY_READ_LIMIT,
  MAX_OFFLOAD_TURNS,
  MAX_OFFLOAD_TURN_CHARS,
  MAX_HISTORY_PER_NAMESPACE,
  MAX_REPO_HISTORY,
  MAX_REPO_TRANSFER_FACTS,
  MAX_IMPORT_CHARS,
  IMPORT_BODY_BYTES,
  OFFLOAD_BODY_BYTES,
  MAX_PROMOTE_FACT_IDS,
  MAX_SINGLE_VALUED_PREDICATES,
  MAX_SUBGRAPH_DEPTH,
  MAX_SUPERSEDES,
  MAX_SUBGRAPH_EDGES,
} from "../core/limits";
import { instant, type ErasureReceipt, type MemoryScope } from "../core/memory/engine";
import type { MemoryServices } from "../core/memory/services";
import { EXPORT_FORMAT } from "../core/memory/transfer";
import { REPO_EXPORT_FORMAT } from "../core/memory/repository-transfer";
import { eraseJobsQuotingFacts, eraseRepoJobQuotes } from "../queues/memory-erasure";
import { readNamespaceErasure, recordForgetErasure, recordNamespaceErasure } from "../core/retention/receipts";
import { defineOperation, type OpCall } from "./operation";
import { factIds, recallLimit, recallQuery, recallResults, repoNode, repoRef, source, triples } from "./schemas";
import { asOf, extractionCounts, erasureReceipt, factHistory, liveFact, repoFactHistory, repoFactId, sessionFactId } from "./memory-schemas";

const SESSION = "/api/v1/repos/:repo/session-memory";
/** What session memory itself refuses: its limits, a cleared namespace, a concurrent write. */
const SESSION_ERRORS = ["limit_exceeded", "namespace_closed", "revision_conflict", "conflict", "invalid_identity"] as const;
/** What repository memory itself refuses: its limits, an unknown node, a concurrent write. */
const REPOSITORY_ERRORS = ["limit_exceeded", "not_found", "conflict"] as const;
const REPOSITORY = "/api/v1/repos/:repo/memory";

export function memoryOf(call: OpCall): MemoryServices {
  const m = call.services.memory;
  if (!m) throw new AppError("unavailable", { message: "Memory is not configured." });
  return m;
}

/** The caller's session-memory scope in the resolved repository. */
function scopeOf(call: OpCall): MemoryScope {
  return { identity: call.auth.identity, ns: call.repo!.repoId, expiresAt: call.auth.expiresAt };
}

export const recallContext = defineOperation({
  name: "memory.recall",
  title: "Recall context",
  description:
    "Finds facts relevant to a query. By default it searches this chat thread's own session memory for the repository " +
    '(nothing from other threads or users). Set memory_scope to "repository" to search the durable repository memory ' +
    "shared by everyone with access to the repository. Only facts current now, unless as_of asks what the thread (or the " +
    "repository) believed at that time. Results: {results: [{fact_id, subject, predicate, object, score}]}.",
  input: {
    repo: repoRef,
    query: recallQuery,
    limit: recallLimit,
    memory_scope: z.enum(["session", "repository"]).default("session").describe('"session" (default): this thread only; "repository": durable shared memory.'),
    as_of: asOf.describe(
      "Answer what this thread (or, for repository memory, the repository) believed at this time (platform clock), " +
        "including facts since superseded or retracted.",
    ),
  },
  output: recallResults,
  level: "read",
  errors: [...SESSION_ERRORS, ...REPOSITORY_ERRORS],
  http: [
    { method: "post", path: `${SESSION}/recall`, fixed: { memory_scope: "session" }, title: "Recall from this thread's memory" },
    { method: "post", path: `${REPOSITORY}/recall`, fixed: { memory_scope: "repository" }, title: "Recall from repository memory" },
  ],
  mcp: { tool: "recall_context", readOnly: true },
  async run(call, input) {
    const m = memoryOf(call);
    const q = { query: input.query, limit: input.limit, asOf: instant(input.as_of, "as_of") };
    if (input.memory_scope === "repository") return m.repository.recall(call.auth.identity, call.repo!.repoId, q);
    return m.sessions.recall(scopeOf(call), q);
  },
});

export const offloadTurns = defineOperation({
  name: "session_memory.offload",
  title: "Offload conversation turns",
  bodyBytes: OFFLOAD_BODY_BYTES,
  description:
    "Call this after each finished exchange (or before the context is compacted) with the turns since the last call: the " +
    "local memory extractor keeps what lasts — decisions, corrections, rules, preferences, code locations (files, symbols, " +
    "env vars, commands), versions and figures, ownership, causes of bugs and their fixes — as facts in THIS thread's " +
    "session memory for the repository (never in shared repository memory), so recall_context finds them later. A " +
    "correction replaces the fact it corrects; a repeat adds nothing; near the namespace's limits the least useful " +
    "extracted facts are dropped (counted in the namespace read's `extraction`). Turns are redacted before they are " +
    "queued, held only in memory and processed in the background; each fact's source names its turn (the turn's `id`, " +
    `else the answer's offload_id and the turn's position). Answers {accepted, offload_id} at once. At most ${MAX_OFFLOAD_TURNS} ` +
    `turns of ${MAX_OFFLOAD_TURN_CHARS} characters.`,
  input: {
    repo: repoRef,
    turns: z
      .array(
        z.strictObject({
          role: z.enum(["user", "assistant", "tool"]),
          content: textString(MAX_OFFLOAD_TURN_CHARS),
          id: idString().optional().describe("The runtime's own ID for the turn (provenance only; never a session ID)."),
        }),
      )
      .min(1)
      .max(MAX_OFFLOAD_TURNS)
      .describe('Turns like {"role": "user", "content": "...", "id": "turn-41"} (id optional).'),
  },
  output: z.object({ accepted: z.number().int(), offload_id: z.string() }),
  level: "read",
  errors: SESSION_ERRORS,
  http: [{ method: "post", path: `${SESSION}/offload`, status: 202 }],
  mcp: { tool: "offload_turns" },
  async run(call, input) {
    const { identity, clock } = call.services;
    const { principal } = call;
    const sessionId = call.auth.identity.session_id;
    const repoId = call.repo!.repoId;
    // A turn ID is provenance, stored in sources: the thread's own session ID is refused there (not echoed).
    input.turns.forEach((t, i) => {
      if (t.id !== undefined && (t.id === sessionId || t.id === call.auth.identity.parent_session_id)) {
        throw new AppError("validation_failed", { message: `The request is not valid: turns.${i}.id (a turn ID cannot be a session ID).`, details: { field: `turns.${i}.id` } });
      }
    });
    // OFF-2: authorization is run again from the rows before the extracted facts are stored.
    const recheck = async (): Promise<MemoryScope> => {
      const a = await authorize(identity, clock, principal, sessionId, { repo: { ref: repoId, level: "read" } });
      return { identity: a.identity, ns: a.repo!.repoId, expiresAt: a.expiresAt };
    };
    const { offload_id } = await memoryOf(call).offload.submit(scopeOf(call), input.turns, recheck);
    return { accepted: input.turns.length, offload_id };
  },
});

export const upsertSessionFacts = defineOperation({
  name: "session_memory.upsert",
  title: "Remember facts for this thread",
  description:
    "Stores triples in THIS chat thread's session memory for the repository (private to this thread; expires with it). " +
    "Idempotent per triple. To correct a fact, name the old fact_id in supersedes, or declare the predicate single_valued " +
    "(then a new object for the same subject replaces the old fact automatically, in this and later upserts). Replaced facts " +
    "leave recall and reads and stay in their history. Answers {facts: [{fact_id, subject_id, predicate, object_id}], superseded: [fact_id], revision}. " +
    "Use promote_session_facts to copy chosen facts into durable repository memory.",
  input: {
    repo: repoRef,
    triples,
    source,
    supersedes: z
      .array(sessionFactId)
      .max(MAX_SUPERSEDES)
      .optional()
      .describe(`Up to ${MAX_SUPERSEDES} live fact_id values these triples replace. All or nothing: an ID that is not a live fact of this thread refuses the call (404).`),
    single_valued: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/))
      .max(MAX_SINGLE_VALUED_PREDICATES)
      .optional()
      .describe(`Predicates to declare single-valued in this thread's namespace, for good (at most ${MAX_SINGLE_VALUED_PREDICATES} per namespace): one live object per subject.`),
    observed_at: z.iso.datetime({ offset: true }).optional().describe("When the runtime observed these facts, if it knows better than the time of this call (not in the future)."),
  },
  output: z.strictObject({ facts: z.array(factIds), superseded: z.array(z.string()), revision: z.number().int() }),
  level: "read",
  errors: SESSION_ERRORS,
  http: [{ method: "post", path: SESSION }],
  mcp: { tool: "upsert_session_facts" },
  run: async (call, input) =>
    memoryOf(call).sessions.upsert(scopeOf(call), {
      triples: input.triples,
      source: input.source,
      supersedes: input.supersedes,
      single_valued: input.single_valued,
      observed_at: instant(input.observed_at, "observed_at"),
    }),
});

export const retractSessionFact = defineOperation({
  name: "session_memory.retract",
  title: "Retract a fact from this thread's memory",
  description:
    "Takes one fact out of THIS thread's live session memory: recall and reads stop returning it; its history keeps it with " +
    "the time it was retracted. An ID that is not a live fact of this thread answers 404. Answers {fact_id, valid_to, revision}.",
  input: { repo: repoRef, fact_id: sessionFactId },
  output: z.strictObject({ fact_id: z.string(), valid_to: z.string(), revision: z.number().int() }),
  level: "read",
  http: [{ method: "delete", path: `${SESSION}/facts/:fact_id` }],
  mcp: { tool: "retract_session_fact", destructive: true },
  run: async (call, input) => memoryOf(call).sessions.retract(scopeOf(call), input.fact_id),
});

export const sessionFactHistory = defineOperation({
  name: "session_memory.history",
  title: "History of a fact in this thread's memory",
  description:
    "Every interval during which one fact of THIS thread's session memory was current: when it was learned (valid_from), " +
    "when it stopped (valid_to, null while current), why (superseded or retracted), by which facts, and which session " +
    `learned it. Oldest first. A namespace keeps at most ${MAX_HISTORY_PER_NAMESPACE} ended intervals. Answers {fact_id, versions: [...]}.`,
  input: { repo: repoRef, fact_id: sessionFactId },
  output: factHistory,
  level: "read",
  http: [{ method: "get", path: `${SESSION}/facts/:fact_id/history` }],
  mcp: { tool: "session_fact_history", readOnly: true },
  run: async (call, input) => memoryOf(call).sessions.history(scopeOf(call), input.fact_id),
});

export const exportSessionMemory = defineOperation({
  name: "session_memory.export",
  title: "Export this thread's memory",
  description:
    "Exports THIS thread's session memory for the repository as JSON Lines (a header line, then entities, live facts with " +
    "their validity, and the history; no vectors), in the `jsonl` field. Import it into another thread with import_session_memory. " +
    "Answers {format, jsonl, entities, facts, history}.",
  input: { repo: repoRef },
  output: z.strictObject({ format: z.string(), jsonl: z.string(), entities: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "read",
  http: [{ method: "get", path: `${SESSION}/export` }],
  mcp: { tool: "export_session_memory", readOnly: true },
  async run(call) {
    const out = await memoryOf(call).sessions.exportLines(scopeOf(call));
    return { format: EXPORT_FORMAT, jsonl: out.lines, entities: out.entities, facts: out.facts, history: out.history };
  },
});

export const importSessionMemory = defineOperation({
  name: "session_memory.import",
  title: "Import memory into this thread",
  bodyBytes: IMPORT_BODY_BYTES,
  description:
    "Imports a JSON Lines export (from export_session_memory) into THIS thread's session memory for the repository, which " +
    "must hold no facts yet. All or nothing: every line is validated, names and sources are redacted, and every limit of " +
    "an upsert applies; a cleared namespace or revoked session refuses as for any write. Entities are embedded again. " +
    "Answers {entities, facts, history, revision}.",
  input: {
    repo: repoRef,
    jsonl: z.string().min(1).max(MAX_IMPORT_CHARS).describe(`The export's JSON Lines text (at most ${MAX_IMPORT_CHARS} characters).`),
  },
  output: z.strictObject({ entities: z.number().int(), facts: z.number().int(), history: z.number().int(), revision: z.number().int() }),
  level: "read",
  http: [{ method: "post", path: `${SESSION}/import` }],
  mcp: { tool: "import_session_memory" },
  run: async (call, input) => memoryOf(call).sessions.importLines(scopeOf(call), input.jsonl),
});

export const readSessionMemory = defineOperation({
  name: "session_memory.read",
  title: "Read this thread's memory",
  description:
    "Lists the entities and facts in THIS chat thread's session memory for the repository, optionally filtered by a " +
    "case-insensitive substring q. Only facts current now, unless as_of asks what the thread believed at that time. " +
    "Answers {entities: [...], facts: [{fact_id, subject, predicate, object, valid_from}], revision, extraction}: extraction " +
    "counts what offload_turns did in this namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).",
  input: {
    repo: repoRef,
    q: textString(MAX_ENTITY_NAME_CHARS).optional().describe("Only entities and facts whose names, types or predicate contain this text."),
    limit: z.number().int().min(1).max(MAX_MEMORY_READ_LIMIT).optional().describe(`At most this many entities and facts (default 100).`),
    as_of: asOf,
  },
  output: z.object({
    entities: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), aliases: z.array(z.string()) })),
    facts: z.array(liveFact),
    revision: z.number().int(),
    extraction: extractionCounts,
  }),
  level: "read",
  errors: SESSION_ERRORS,
  http: [{ method: "get", path: SESSION }],
  mcp: { tool: "read_session_memory", readOnly: true },
  async run(call, input) {
    const out = await memoryOf(call).sessions.read(scopeOf(call), { q: input.q, limit: input.limit, asOf: instant(input.as_of, "as_of") });
    return { entities: out.entities, facts: out.facts, revision: out.revision, extraction: out.extraction };
  },
});

export const clearSessionMemory = defineOperation({
  name: "session_memory.clear",
  title: "Clear this thread's memory",
  description:
    "Deletes THIS chat thread's session memory for the repository (facts, history, entities, vectors) and closes the namespace " +
    "for good, and erases what this thread's finished AI and fix jobs on the repository quote from it (their results " +
    "become {erased: true, cause, erased_at}; their idempotency keys go). Answers an erasure receipt: " +
    "{scope, session_id, stores: [{store, entities, facts, history, rows?, status}], done}.",
  input: { repo: repoRef },
  output: erasureReceipt,
  level: "read",
  errors: SESSION_ERRORS,
  http: [{ method: "delete", path: SESSION }],
  mcp: { tool: "clear_session_memory", destructive: true, idempotent: true },
  async run(call) {
    const receipt = await memoryOf(call).sessions.clear(scopeOf(call));
    const { tenant_id, session_id } = call.auth.identity;
    const target = { tenant_id, session_id, repo_id: call.repo!.repoId };
    const full = await withJobErasure(call, receipt, target, "namespace_cleared");
    // Kept for its owner (get_namespace_erasure). The data is gone either way: a failed write is logged, not answered.
    await recordNamespaceErasure(call.services.db, target, full.stores, call.services.clock.now()).catch((err: unknown) =>
      call.services.logger.warn({ code: "erasure_receipt_failed", err: (err as Error).message }, "recording the namespace erasure receipt failed"),
    );
    return full;
  },
});

export const getNamespaceErasure = defineOperation({
  name: "session_memory.erasure",
  title: "Erasure receipt of a cleared thread memory",
  description:
    "The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory for the repository " +
    "(or, with session_id, another session's of yours; owners and admins of the organisation may name any) removed from each " +
    "store, and whether each is done: {scope, session_id, repo_id, stores: [{store, entities, facts, history, rows?, status}], " +
    "clears, done, cleared_at, updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404 session_not_found.",
  input: { repo: repoRef, session_id: idString().optional().describe("The session whose namespace receipt to read (default: this thread).") },
  output: z.strictObject({
    scope: z.literal("namespace"),
    session_id: z.string(),
    repo_id: z.string(),
    stores: erasureReceipt.shape.stores,
    clears: z.number().int().describe("Clears recorded (a repeated clear adds its counts)."),
    done: z.boolean(),
    cleared_at: z.string(),
    updated_at: z.string(),
  }),
  level: "read",
  errors: ["session_not_found"],
  http: [{ method: "get", path: `${SESSION}/erasure` }],
  mcp: { tool: "get_namespace_erasure", readOnly: true },
  run: async (call, input) =>
    readNamespaceErasure(
      call.services.db,
      { orgId: call.principal.orgId, userId: call.principal.userId, role: call.principal.role ?? "" },
      input.session_id ?? call.auth.identity.session_id,
      call.repo!.repoId,
    ),
});

/** Appends the job store's erasure (queues/memory-erasure.ts) to a receipt. */
async function withJobErasure(call: OpCall, receipt: ErasureReceipt, t: { tenant_id: string; session_id: string; repo_id: string }, cause: "namespace_cleared" | "session_forgotten"): Promise<ErasureReceipt> {
  const j = await eraseRepoJobQuotes(call.services.db, t, cause, call.services.clock.now());
  const stores: ErasureReceipt["stores"] = [
    ...receipt.stores,
    { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: j.results, status: j.pending > 0 ? "pending" : "done" },
    { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: j.idempotency, status: "done" },
  ];
  return { ...receipt, stores, done: stores.every((x) => x.status === "done") };
}

export const promoteSessionFacts = defineOperation({
  name: "session_memory.promote",
  title: "Promote session facts",
  description:
    `Copies 1-${MAX_PROMOTE_FACT_IDS} of THIS thread's session facts (by fact_id) into the durable repository memory, ` +
    "recording this thread as their origin. Needs write permission on the repository. The session facts stay. " +
    "All or nothing: an ID that is not a fact of this thread's memory refuses the call. Answers {promoted: [repository fact ids]}.",
  input: { repo: repoRef, fact_ids: z.array(idString()).min(1).max(MAX_PROMOTE_FACT_IDS).describe("fact_id values from this thread's session memory.") },
  output: z.object({ promoted: z.array(z.string()) }),
  level: "write",
  errors: [...SESSION_ERRORS, ...REPOSITORY_ERRORS],
  http: [{ method: "post", path: `${SESSION}/promote` }],
  mcp: { tool: "promote_session_facts" },
  async run(call, input) {
    const m = memoryOf(call);
    return m.repository.promote(m.sessions, scopeOf(call), input.fact_ids);
  },
});

export const upsertGraphTriples = defineOperation({
  name: "repository_memory.upsert",
  title: "Write durable repository facts",
  description:
    "Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the repository; each new " +
    "record notes this thread as origin_session_id. Needs write permission. For thread-private notes use upsert_session_facts. " +
    "To correct a durable fact, name it in supersedes, or declare the predicate single_valued for the repository (then a new " +
    "object for the same subject replaces the old fact, in this and later writes); replaced facts leave recall and reads and " +
    "stay in their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate, object_id}], superseded: [fact_id]}.",
  input: {
    repo: repoRef,
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
  http: [{ method: "post", path: `${REPOSITORY}/triples` }],
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

export const retractRepositoryFact = defineOperation({
  name: "repository_memory.retract",
  title: "Retract a durable repository fact",
  description:
    "Takes one fact out of the repository's live DURABLE memory (write permission): recall and reads stop returning it; " +
    "its history keeps it with the time it was retracted and this thread as ended_by. An ID that is not a live fact of the " +
    "repository answers 404. Answers {fact_id, valid_to}.",
  input: { repo: repoRef, fact_id: repoFactId },
  output: z.strictObject({ fact_id: z.string(), valid_to: z.string() }),
  level: "write",
  errors: [...REPOSITORY_ERRORS, "revision_conflict"],
  http: [{ method: "delete", path: `${REPOSITORY}/facts/:fact_id` }],
  mcp: { tool: "retract_repository_fact", destructive: true },
  run: async (call, input) => memoryOf(call).repository.retract(call.auth.identity, call.repo!.repoId, input.fact_id),
});

export const repositoryFactHistory = defineOperation({
  name: "repository_memory.history",
  title: "History of a durable repository fact",
  description:
    "Every interval during which one fact of the repository's DURABLE memory was current: who wrote it (origin_session_id), " +
    "when (valid_from, valid_to; null while current), why it stopped (superseded or retracted), by whose write (ended_by) " +
    `and which facts replaced it. Oldest first. A repository keeps at most ${MAX_REPO_HISTORY} ended intervals. Answers {fact_id, versions: [...]}.`,
  input: { repo: repoRef, fact_id: repoFactId },
  output: repoFactHistory,
  level: "read",
  errors: REPOSITORY_ERRORS,
  http: [{ method: "get", path: `${REPOSITORY}/facts/:fact_id/history` }],
  mcp: { tool: "repository_fact_history", readOnly: true },
  run: async (call, input) => memoryOf(call).repository.history(call.repo!.repoId, input.fact_id),
});

export const exportRepositoryMemory = defineOperation({
  name: "repository_memory.export",
  title: "Export the repository's durable memory",
  description:
    "Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the nodes, the memory facts " +
    "with their validity and provenance (origin_session_id, source), the history and the single-valued predicates; no " +
    `embeddings, and not the code graph (ingest derives it from the checkout). At most ${MAX_REPO_TRANSFER_FACTS} memory facts. ` +
    "Import it into another repository with import_repository_memory. Answers {format, jsonl, nodes, facts, history}.",
  input: { repo: repoRef },
  output: z.strictObject({ format: z.string(), jsonl: z.string(), nodes: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "read",
  errors: REPOSITORY_ERRORS,
  http: [{ method: "get", path: `${REPOSITORY}/export` }],
  mcp: { tool: "export_repository_memory", readOnly: true },
  async run(call) {
    const out = await memoryOf(call).repository.exportLines(call.repo!.repoId);
    return { format: REPO_EXPORT_FORMAT, jsonl: out.lines, nodes: out.nodes, facts: out.facts, history: out.history };
  },
});

export const importRepositoryMemory = defineOperation({
  name: "repository_memory.import",
  title: "Import durable memory into the repository",
  bodyBytes: IMPORT_BODY_BYTES,
  description:
    "Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory (write permission), " +
    "which must hold no memory facts and no history yet (its code graph may be there). All or nothing: every line is " +
    "validated, names and sources are redacted, IDs are derived for this repository, and the repository's limits apply. " +
    "This thread becomes the origin of the imported facts; nodes are embedded again. Answers {nodes, facts, history}.",
  input: {
    repo: repoRef,
    jsonl: z.string().min(1).max(MAX_IMPORT_CHARS).describe(`The export's JSON Lines text (at most ${MAX_IMPORT_CHARS} characters).`),
  },
  output: z.strictObject({ nodes: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "write",
  errors: [...REPOSITORY_ERRORS, "revision_conflict"],
  http: [{ method: "post", path: `${REPOSITORY}/import` }],
  mcp: { tool: "import_repository_memory" },
  run: async (call, input) => memoryOf(call).repository.importLines(call.auth.identity, call.repo!.repoId, input.jsonl),
});

export const forgetSessionWrites = defineOperation({
  name: "repository_memory.forget_session",
  title: "Forget what a session wrote to repository memory",
  description:
    "Repository admins: removes from the repository's DURABLE memory every fact one session promoted or wrote " +
    "(origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes other facts still use stay, " +
    "with their origin cleared, and its history entries; the results of that session's finished AI and fix jobs on the " +
    "repository are erased too, and so are other sessions' AI and fix results on the repository whose sources cite a " +
    "forgotten fact (their idempotency keys go). Answers an erasure receipt {scope: \"promoted\", session_id, stores: [{store, entities, facts, history, rows?, status}], done}.",
  input: { repo: repoRef, session_id: idString().describe("The session whose durable writes to forget (an origin_session_id).") },
  output: erasureReceipt,
  level: "admin",
  http: [{ method: "post", path: `${REPOSITORY}/forget-session` }],
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
    await recordForgetErasure(call.services.db, target, stores, forgotten, now).catch((err: unknown) =>
      call.services.logger.warn({ code: "erasure_receipt_failed", err: (err as Error).message }, "recording the forget erasure receipt failed"),
    );
    return { ...own, stores, done: stores.every((x) => x.status === "done") };
  },
});

export const indexRepositoryMemory = defineOperation({
  name: "repository_memory.index",
  title: "Embed repository memory",
  description: `Embeds one bounded batch (1-${MAX_EMBED_BATCH}) of the repository memory's facts not yet embedded, under this execution. Answers {indexed, remaining}.`,
  input: { repo: repoRef, batch: z.number().int().min(1).max(MAX_EMBED_BATCH).optional() },
  output: z.object({ indexed: z.number().int(), remaining: z.boolean() }),
  level: "write",
  errors: REPOSITORY_ERRORS,
  http: [{ method: "post", path: `${REPOSITORY}/index` }],
  mcp: { tool: "index_repository_memory" },
  run: async (call, input) => memoryOf(call).repository.index(call.auth.identity, call.repo!.repoId, input.batch),
});

export const searchGraphNodes = defineOperation({
  name: "repository_memory.search_nodes",
  title: "Search repository graph nodes",
  description:
    "Finds nodes of the repository's durable graph (code symbols, files and memory entities) whose name contains every word " +
    "of the query, case-insensitive. Answers {nodes: [{id, label, name, type, origin_session_id}]}; use a node id with query_subgraph.",
  input: {
    repo: repoRef,
    query: textString(MAX_ENTITY_NAME_CHARS).min(1).describe("Words the node name must contain."),
    limit: z.number().int().min(1).max(MAX_GRAPH_SEARCH_LIMIT).optional().describe("At most this many nodes (default 20)."),
  },
  output: z.object({ nodes: z.array(repoNode) }),
  level: "read",
  errors: REPOSITORY_ERRORS,
  http: [{ method: "get", path: `${REPOSITORY}/nodes` }],
  mcp: { tool: "search_graph_nodes", readOnly: true },
  run: async (call, input) => ({ nodes: await memoryOf(call).repository.searchNodes(call.repo!.repoId, input.query, input.limit ?? 20) }),
});

export const querySubgraph = defineOperation({
  name: "repository_memory.subgraph",
  title: "Explore the repository graph around a node",
  description:
    `Returns a node of the repository's durable graph and everything within \`depth\` hops in both directions (1-${MAX_SUBGRAPH_DEPTH}, default 1), ` +
    "at most `limit` edges (default 100). Answers {nodes: [...], edges: [{id, label, src, predicate, dst, origin_session_id}]}.",
  input: {
    repo: repoRef,
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
  http: [{ method: "get", path: `${REPOSITORY}/subgraph` }],
  mcp: { tool: "query_subgraph", readOnly: true },
  async run(call, input) {
    const g = await memoryOf(call).repository.querySubgraph(call.repo!.repoId, input.node_id, input.depth ?? 1, input.limit ?? 100, instant(input.as_of, "as_of"));
    return { nodes: g.nodes, edges: g.edges };
  },
});

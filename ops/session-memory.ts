/**
 * The session-memory operations (HTTP-4, MCP-1): THIS thread's namespace in
 * the repository — offload, upsert, retract, history, export and import,
 * read, clear and its erasure receipt, and promotion into repository memory.
 */
import { z } from "zod";
import { authorize } from "../core/authorize";
import { idString, textString } from "../core/boundary";
import { AppError } from "../core/errors";
import {
  MAX_ENTITY_NAME_CHARS,
  MAX_MEMORY_READ_LIMIT,
  MAX_OFFLOAD_TURNS,
  MAX_OFFLOAD_TURN_CHARS,
  MAX_HISTORY_PER_NAMESPACE,
  MAX_IMPORT_CHARS,
  IMPORT_BODY_BYTES,
  OFFLOAD_BODY_BYTES,
  MAX_PROMOTE_FACT_IDS,
  MAX_SINGLE_VALUED_PREDICATES,
  MAX_SUPERSEDES,
} from "../core/limits";
import type { MemoryScope } from "../core/memory/engine";
import { instant } from "../core/memory/input";
import { EXPORT_FORMAT } from "../core/memory/transfer";
import { readNamespaceErasure, recordNamespaceErasure } from "../core/retention/receipts";
import { memoryOf, memoryOperation, REPOSITORY_ERRORS, scopeOf, SESSION_ERRORS, withJobErasure } from "./memory";
import { factIds, source, triples } from "./schemas";
import { asOf, extractionCounts, erasureReceipt, factHistory, liveFact, sessionFactId } from "./memory-schemas";

export const offloadTurns = memoryOperation("session", {
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
  route: { method: "post", path: "/offload", status: 202 },
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

export const upsertSessionFacts = memoryOperation("session", {
  name: "session_memory.upsert",
  title: "Remember facts for this thread",
  description:
    "Stores triples in THIS chat thread's session memory for the repository (private to this thread; expires with it). " +
    "Idempotent per triple. To correct a fact, name the old fact_id in supersedes, or declare the predicate single_valued " +
    "(then a new object for the same subject replaces the old fact automatically, in this and later upserts). Replaced facts " +
    "leave recall and reads and stay in their history. Answers {facts: [{fact_id, subject_id, predicate, object_id}], superseded: [fact_id], revision}. " +
    "Use promote_session_facts to copy chosen facts into durable repository memory.",
  input: {
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
  route: { method: "post" },
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

export const retractSessionFact = memoryOperation("session", {
  name: "session_memory.retract",
  title: "Retract a fact from this thread's memory",
  description:
    "Takes one fact out of THIS thread's live session memory: recall and reads stop returning it; its history keeps it with " +
    "the time it was retracted. An ID that is not a live fact of this thread answers 404. Answers {fact_id, valid_to, revision}.",
  input: { fact_id: sessionFactId },
  output: z.strictObject({ fact_id: z.string(), valid_to: z.string(), revision: z.number().int() }),
  level: "read",
  route: { method: "delete", path: "/facts/:fact_id" },
  mcp: { tool: "retract_session_fact", destructive: true },
  run: async (call, input) => memoryOf(call).sessions.retract(scopeOf(call), input.fact_id),
});

export const sessionFactHistory = memoryOperation("session", {
  name: "session_memory.history",
  title: "History of a fact in this thread's memory",
  description:
    "Every interval during which one fact of THIS thread's session memory was current: when it was learned (valid_from), " +
    "when it stopped (valid_to, null while current), why (superseded or retracted), by which facts, and which session " +
    `learned it. Oldest first. A namespace keeps at most ${MAX_HISTORY_PER_NAMESPACE} ended intervals. Answers {fact_id, versions: [...]}.`,
  input: { fact_id: sessionFactId },
  output: factHistory,
  level: "read",
  route: { method: "get", path: "/facts/:fact_id/history" },
  mcp: { tool: "session_fact_history", readOnly: true },
  run: async (call, input) => memoryOf(call).sessions.history(scopeOf(call), input.fact_id),
});

export const exportSessionMemory = memoryOperation("session", {
  name: "session_memory.export",
  title: "Export this thread's memory",
  description:
    "Exports THIS thread's session memory for the repository as JSON Lines (a header line, then entities, live facts with " +
    "their validity, and the history; no vectors), in the `jsonl` field. Import it into another thread with import_session_memory. " +
    "Answers {format, jsonl, entities, facts, history}.",
  output: z.strictObject({ format: z.string(), jsonl: z.string(), entities: z.number().int(), facts: z.number().int(), history: z.number().int() }),
  level: "read",
  route: { method: "get", path: "/export" },
  mcp: { tool: "export_session_memory", readOnly: true },
  async run(call) {
    const out = await memoryOf(call).sessions.exportLines(scopeOf(call));
    return { format: EXPORT_FORMAT, jsonl: out.lines, entities: out.entities, facts: out.facts, history: out.history };
  },
});

export const importSessionMemory = memoryOperation("session", {
  name: "session_memory.import",
  title: "Import memory into this thread",
  bodyBytes: IMPORT_BODY_BYTES,
  description:
    "Imports a JSON Lines export (from export_session_memory) into THIS thread's session memory for the repository, which " +
    "must hold no facts yet. All or nothing: every line is validated, names and sources are redacted, and every limit of " +
    "an upsert applies; a cleared namespace or revoked session refuses as for any write. Entities are embedded again. " +
    "Answers {entities, facts, history, revision}.",
  input: {
    jsonl: z.string().min(1).max(MAX_IMPORT_CHARS).describe(`The export's JSON Lines text (at most ${MAX_IMPORT_CHARS} characters).`),
  },
  output: z.strictObject({ entities: z.number().int(), facts: z.number().int(), history: z.number().int(), revision: z.number().int() }),
  level: "read",
  route: { method: "post", path: "/import" },
  mcp: { tool: "import_session_memory" },
  run: async (call, input) => memoryOf(call).sessions.importLines(scopeOf(call), input.jsonl),
});

export const readSessionMemory = memoryOperation("session", {
  name: "session_memory.read",
  title: "Read this thread's memory",
  description:
    "Lists the entities and facts in THIS chat thread's session memory for the repository, optionally filtered by a " +
    "case-insensitive substring q. Only facts current now, unless as_of asks what the thread believed at that time. " +
    "Answers {entities: [...], facts: [{fact_id, subject, predicate, object, valid_from}], revision, extraction}: extraction " +
    "counts what offload_turns did in this namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).",
  input: {
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
  route: { method: "get" },
  mcp: { tool: "read_session_memory", readOnly: true },
  async run(call, input) {
    const out = await memoryOf(call).sessions.read(scopeOf(call), { q: input.q, limit: input.limit, asOf: instant(input.as_of, "as_of") });
    return { entities: out.entities, facts: out.facts, revision: out.revision, extraction: out.extraction };
  },
});

export const clearSessionMemory = memoryOperation("session", {
  name: "session_memory.clear",
  title: "Clear this thread's memory",
  description:
    "Deletes THIS chat thread's session memory for the repository (facts, history, entities, vectors) and closes the namespace " +
    "for good, and erases what this thread's finished AI and fix jobs on the repository quote from it (their results " +
    "become {erased: true, cause, erased_at}; their idempotency keys go). Answers an erasure receipt: " +
    "{scope, session_id, stores: [{store, entities, facts, history, rows?, status}], done}.",
  output: erasureReceipt,
  level: "read",
  errors: SESSION_ERRORS,
  route: { method: "delete" },
  mcp: { tool: "clear_session_memory", destructive: true, idempotent: true },
  async run(call) {
    const receipt = await memoryOf(call).sessions.clear(scopeOf(call));
    const { tenant_id, session_id } = call.auth.identity;
    const target = { tenant_id, session_id, repo_id: call.repo!.repoId };
    const full = await withJobErasure(call, receipt, target, "namespace_cleared");
    // Kept for its owner (get_namespace_erasure). The data is gone either way: a failed write is logged, not answered.
    await recordNamespaceErasure(call.services.stores.receipts, target, full.stores, call.services.clock.now()).catch((err: unknown) =>
      call.services.logger.warn({ code: "erasure_receipt_failed", err: (err as Error).message }, "recording the namespace erasure receipt failed"),
    );
    return full;
  },
});

export const getNamespaceErasure = memoryOperation("session", {
  name: "session_memory.erasure",
  title: "Erasure receipt of a cleared thread memory",
  description:
    "The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory for the repository " +
    "(or, with session_id, another session's of yours; owners and admins of the organisation may name any) removed from each " +
    "store, and whether each is done: {scope, session_id, repo_id, stores: [{store, entities, facts, history, rows?, status}], " +
    "clears, done, cleared_at, updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404 session_not_found.",
  input: { session_id: idString().optional().describe("The session whose namespace receipt to read (default: this thread).") },
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
  route: { method: "get", path: "/erasure" },
  mcp: { tool: "get_namespace_erasure", readOnly: true },
  run: async (call, input) =>
    readNamespaceErasure(
      call.services.stores.receipts,
      { orgId: call.principal.orgId, userId: call.principal.userId, role: call.principal.role ?? "" },
      input.session_id ?? call.auth.identity.session_id,
      call.repo!.repoId,
    ),
});

export const promoteSessionFacts = memoryOperation("session", {
  name: "session_memory.promote",
  title: "Promote session facts",
  description:
    `Copies 1-${MAX_PROMOTE_FACT_IDS} of THIS thread's session facts (by fact_id) into the durable repository memory, ` +
    "recording this thread as their origin. Needs write permission on the repository. The session facts stay. " +
    "All or nothing: an ID that is not a fact of this thread's memory refuses the call. Answers {promoted: [repository fact ids]}.",
  input: { fact_ids: z.array(idString()).min(1).max(MAX_PROMOTE_FACT_IDS).describe("fact_id values from this thread's session memory.") },
  output: z.object({ promoted: z.array(z.string()) }),
  level: "write",
  errors: [...SESSION_ERRORS, ...REPOSITORY_ERRORS],
  route: { method: "post", path: "/promote" },
  mcp: { tool: "promote_session_facts" },
  async run(call, input) {
    const m = memoryOf(call);
    return m.repository.promote(m.sessions, scopeOf(call), input.fact_ids);
  },
});


/**
 * Memory tools (MCP-1, MCP-1a, MCP-4). Each takes `repo` (id, or name in the
 * caller's organisation), checks the repository permission the matching REST
 * route checks, and calls the same core service the route calls
 * (api/routes/session-memory.ts, api/routes/repo-memory.ts):
 *
 *   tool                    scope                       permission  core call
 *   recall_context          session (default)           read        sessions.recall
 *                           memory_scope: "repository"  read        repository.recall
 *   offload_turns           session only                read        offload.submit (+ authorize recheck)
 *   upsert_session_facts    session                     read        sessions.upsert
 *   read_session_memory     session                     read        sessions.read
 *   promote_session_facts   session → repository        write       repository.promote
 *   upsert_graph_triples    repository                  write       repository.upsertTriples (origin_session_id)
 *   search_graph_nodes      repository                  read        repository.searchNodes
 *   query_subgraph          repository                  read        repository.querySubgraph
 *
 * The session namespace is the repository; the session is the caller's
 * registered primary session — never an argument, never the MCP transport ID.
 */
import { z } from "zod";
import { authorize } from "../../../core/authorize";
import { idString, textString } from "../../../core/boundary";
import {
  MAX_ENTITY_NAME_CHARS,
  MAX_MEMORY_READ_LIMIT,
  MAX_OFFLOAD_TURNS,
  MAX_OFFLOAD_TURN_CHARS,
  MAX_PROMOTE_FACT_IDS,
  MAX_RECALL_LIMIT,
  MAX_RECALL_QUERY_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TRIPLES_PER_UPSERT,
} from "../../../core/limits";
import type { MemoryScope } from "../../../core/memory/engine";
import type { RepoLevel } from "../../../db/schema";
import { principalOf } from "../../execution";
import { memoryOf, tripleSchema } from "../../routes/session-memory";
import type { DefineTool, ToolRun } from "../server";

const repo = idString().describe("The repository: its id, or its name within your organisation.");
const triples = z
  .array(tripleSchema)
  .min(1)
  .max(MAX_TRIPLES_PER_UPSERT)
  .describe(
    'Triples like {"subject": "AuthService", "predicate": "depends_on", "object": "TokenStore", "subject_type": "class", "object_type": "class"}. ' +
      "Predicates match ^[a-z][a-z0-9_]{0,63}$; names are 1-256 characters; types are optional.",
  );
const source = textString(MAX_SOURCE_CHARS).optional().describe("Where the facts come from (a file, a turn); stored redacted.");
const query = textString(MAX_RECALL_QUERY_CHARS).min(1).describe("What to look for, in plain words.");
const recallLimit = z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe(`At most this many results (1-${MAX_RECALL_LIMIT}, default 10).`);

/** The caller's session-memory scope in `ref`, after the repository permission check (as memoryScope() does for REST). */
async function sessionScope(run: ToolRun, ref: string, level: RepoLevel): Promise<MemoryScope> {
  const r = await run.repo(ref, level);
  return { identity: run.identity, ns: r.repoId, expiresAt: run.caller.expiresAt };
}

export function registerMemoryTools(define: DefineTool): void {
  define(
    "recall_context",
    {
      title: "Recall context",
      description:
        "Finds facts relevant to a query. By default it searches this chat thread's own session memory for the repository " +
        '(nothing from other threads or users). Set memory_scope to "repository" to search the durable repository memory ' +
        "shared by everyone with access to the repository. Results: {results: [{fact_id, subject, predicate, object, score}]}.",
      inputSchema: {
        repo,
        query,
        limit: recallLimit,
        memory_scope: z.enum(["session", "repository"]).default("session").describe('"session" (default): this thread only; "repository": durable shared memory.'),
      },
      readOnly: true,
    },
    async (args, run) => {
      const scope = await sessionScope(run, args.repo, "read");
      const m = memoryOf(run.ctx);
      const input = { query: args.query, limit: args.limit };
      if (args.memory_scope === "repository") return m.repository.recall(run.identity, scope.ns, input);
      return m.sessions.recall(scope, input);
    },
  );

  define(
    "offload_turns",
    {
      title: "Offload conversation turns",
      description:
        "Hands recent conversation turns to the local memory extractor, which stores the facts it finds in THIS thread's session " +
        "memory for the repository (never in shared repository memory). Turns are redacted before they are queued, held only in " +
        `memory, and processed in the background; answers {accepted: n} at once. At most ${MAX_OFFLOAD_TURNS} turns of ${MAX_OFFLOAD_TURN_CHARS} characters.`,
      inputSchema: {
        repo,
        turns: z
          .array(z.strictObject({ role: z.enum(["user", "assistant", "tool"]), content: textString(MAX_OFFLOAD_TURN_CHARS) }))
          .min(1)
          .max(MAX_OFFLOAD_TURNS)
          .describe('Turns like {"role": "user", "content": "..."}.'),
      },
    },
    async (args, run) => {
      const scope = await sessionScope(run, args.repo, "read");
      const principal = principalOf(run.caller.actor);
      const sessionId = run.identity.session_id;
      const repoId = scope.ns;
      const { ctx } = run;
      // OFF-2: authorization is run again from the rows before the extracted facts are stored.
      const recheck = async (): Promise<MemoryScope> => {
        const a = await authorize(ctx.db, ctx.clock, principal, sessionId, { repo: { ref: repoId, level: "read" } });
        return { identity: a.identity, ns: a.repo!.repoId, expiresAt: a.expiresAt };
      };
      await memoryOf(ctx).offload.submit(scope, args.turns, recheck);
      return { accepted: args.turns.length };
    },
  );

  define(
    "upsert_session_facts",
    {
      title: "Remember facts for this thread",
      description:
        "Stores triples in THIS chat thread's session memory for the repository (private to this thread; expires with it). " +
        "Idempotent per triple. Answers {facts: [{fact_id, subject_id, predicate, object_id}], revision}. " +
        "Use promote_session_facts to copy chosen facts into durable repository memory.",
      inputSchema: { repo, triples, source },
    },
    async (args, run) => memoryOf(run.ctx).sessions.upsert(await sessionScope(run, args.repo, "read"), { triples: args.triples, source: args.source }),
  );

  define(
    "read_session_memory",
    {
      title: "Read this thread's memory",
      description:
        "Lists the entities and facts in THIS chat thread's session memory for the repository, optionally filtered by a " +
        "case-insensitive substring q. Answers {entities: [...], facts: [{fact_id, subject, predicate, object}], revision}.",
      inputSchema: {
        repo,
        q: textString(MAX_ENTITY_NAME_CHARS).optional().describe("Only entities and facts whose names, types or predicate contain this text."),
        limit: z.number().int().min(1).max(MAX_MEMORY_READ_LIMIT).optional().describe(`At most this many entities and facts (default 100).`),
      },
      readOnly: true,
    },
    async (args, run) => {
      const out = await memoryOf(run.ctx).sessions.read(await sessionScope(run, args.repo, "read"), { q: args.q, limit: args.limit });
      return { entities: out.entities, facts: out.facts, revision: out.revision };
    },
  );

  define(
    "promote_session_facts",
    {
      title: "Promote session facts",
      description:
        `Copies 1-${MAX_PROMOTE_FACT_IDS} of THIS thread's session facts (by fact_id) into the durable repository memory, ` +
        "recording this thread as their origin. Needs write permission on the repository. The session facts stay. " +
        "All or nothing: an ID that is not a fact of this thread's memory refuses the call. Answers {promoted: [repository fact ids]}.",
      inputSchema: { repo, fact_ids: z.array(idString()).min(1).max(MAX_PROMOTE_FACT_IDS).describe("fact_id values from this thread's session memory.") },
    },
    async (args, run) => {
      const m = memoryOf(run.ctx);
      return m.repository.promote(m.sessions, await sessionScope(run, args.repo, "write"), args.fact_ids);
    },
  );

  define(
    "upsert_graph_triples",
    {
      title: "Write durable repository facts",
      description:
        "Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the repository; each new " +
        "record notes this thread as origin_session_id. Needs write permission. For thread-private notes use upsert_session_facts. " +
        "Answers {facts: [{fact_id, subject_id, predicate, object_id}]}.",
      inputSchema: { repo, triples, source },
    },
    async (args, run) => {
      const r = await run.repo(args.repo, "write");
      return memoryOf(run.ctx).repository.upsertTriples(run.identity, r.repoId, { triples: args.triples, source: args.source });
    },
  );

  define(
    "search_graph_nodes",
    {
      title: "Search repository graph nodes",
      description:
        "Finds nodes of the repository's durable graph (code symbols, files and memory entities) whose name contains every word " +
        "of the query, case-insensitive. Answers {nodes: [{id, label, name, type, origin_session_id}]}; use a node id with query_subgraph.",
      inputSchema: { repo, query: textString(MAX_ENTITY_NAME_CHARS).min(1).describe("Words the node name must contain."), limit: z.number().int().min(1).max(200).optional().describe("At most this many nodes (default 20).") },
      readOnly: true,
    },
    async (args, run) => {
      const r = await run.repo(args.repo, "read");
      return { nodes: await memoryOf(run.ctx).repository.searchNodes(r.repoId, args.query, args.limit ?? 20) };
    },
  );

  define(
    "query_subgraph",
    {
      title: "Explore the repository graph around a node",
      description:
        "Returns a node of the repository's durable graph and everything within `depth` hops in both directions (1-3, default 1), " +
        "at most `limit` edges (default 100). Answers {nodes: [...], edges: [{id, label, src, predicate, dst, origin_session_id}]}.",
      inputSchema: {
        repo,
        node_id: idString(MAX_ENTITY_NAME_CHARS).describe("A node id from search_graph_nodes or a fact's subject/object id."),
        depth: z.number().int().min(1).max(3).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      },
      readOnly: true,
    },
    async (args, run) => {
      const r = await run.repo(args.repo, "read");
      const g = await memoryOf(run.ctx).repository.querySubgraph(r.repoId, args.node_id, args.depth ?? 1, args.limit ?? 100);
      return { nodes: g.nodes, edges: g.edges };
    },
  );
}

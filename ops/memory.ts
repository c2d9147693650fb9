/**
 * Session and repository memory operations (HTTP-4, HTTP-4a, HTTP-4b, MCP-1,
 * MCP-1a, MCP-4): what they share, and the recall of either memory. Each
 * takes `repo` (id, or name in the caller's organisation) and declares the
 * repository permission it needs. The session namespace is the repository;
 * the session is the caller's registered primary session — never an
 * argument, never the MCP transport ID. The operations of one memory are in
 * session-memory.ts and repository-memory.ts, each made by memoryOperation.
 */
import { z } from "zod";
import { AppError } from "../core/errors";
import type { ErasureReceipt, MemoryScope } from "../core/memory/engine";
import { instant } from "../core/memory/input";
import type { MemoryServices } from "../core/memory/services";
import { eraseRepoJobQuotes } from "../queues/sql/eraseRepoJobQuotes";
import { defineOperation, type HttpBinding, type OpCall, type Operation } from "./operation";
import { recallLimit, recallQuery, recallResults, repoRef } from "./schemas";
import { asOf } from "./memory-schemas";

const SESSION = "/api/v1/repos/:repo/session-memory";
const REPOSITORY = "/api/v1/repos/:repo/memory";
/** What session memory itself refuses: its limits, a cleared namespace, a concurrent write. */
export const SESSION_ERRORS = ["limit_exceeded", "namespace_closed", "revision_conflict", "conflict", "invalid_identity"] as const;
/** What repository memory itself refuses: its limits, an unknown node, a concurrent write. */
export const REPOSITORY_ERRORS = ["limit_exceeded", "not_found", "conflict"] as const;

type WithRepo<S extends z.ZodRawShape> = { repo: typeof repoRef } & S;

/** A memory operation as declared: its own input fields (without `repo`) and its one route, under its memory's path. */
export interface MemoryOperationSpec<S extends z.ZodRawShape, O> extends Omit<Operation<WithRepo<S>, O, "execution">, "input" | "http" | "auth"> {
  input?: S;
  route: Omit<HttpBinding, "path"> & { path?: string };
}

/**
 * The shape every memory operation shares: `repo` is its first input field,
 * and it is mounted at one route under the session memory's or the
 * repository memory's path (`route.path` appended) and as its MCP tool.
 */
export function memoryOperation<S extends z.ZodRawShape = Record<never, never>, O = unknown>(
  memory: "session" | "repository",
  spec: MemoryOperationSpec<S, O>,
): Operation<WithRepo<S>, O, "execution"> {
  const { input, route, ...rest } = spec;
  const { method, path, ...binding } = route;
  return defineOperation({
    ...rest,
    input: { repo: repoRef, ...(input ?? ({} as S)) },
    http: [{ method, path: (memory === "session" ? SESSION : REPOSITORY) + (path ?? ""), ...binding }],
  });
}

export function memoryOf(call: OpCall): MemoryServices {
  const m = call.services.memory;
  if (!m) throw new AppError("unavailable", { message: "Memory is not configured." });
  return m;
}

/** The caller's session-memory scope in the resolved repository. */
export function scopeOf(call: OpCall): MemoryScope {
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

/** Appends the job store's erasure (queues/memory-erasure.ts) to a receipt. */
export async function withJobErasure(call: OpCall, receipt: ErasureReceipt, t: { tenant_id: string; session_id: string; repo_id: string }, cause: "namespace_cleared" | "session_forgotten"): Promise<ErasureReceipt> {
  const j = await eraseRepoJobQuotes(call.services.db, t, cause, call.services.clock.now());
  const stores: ErasureReceipt["stores"] = [
    ...receipt.stores,
    { store: "jobs:results", entities: 0, facts: 0, history: 0, rows: j.results, status: j.pending > 0 ? "pending" : "done" },
    { store: "jobs:idempotency", entities: 0, facts: 0, history: 0, rows: j.idempotency, status: "done" },
  ];
  return { ...receipt, stores, done: stores.every((x) => x.status === "done") };
}


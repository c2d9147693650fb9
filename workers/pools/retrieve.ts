/**
 * Retrieval for AI and fix tasks (WRK-3, WRK-5): durable recall over the
 * repository's memory (code graph + promoted facts) and the caller's own
 * session memory in that repository, under the job's identity. The caller has
 * run `requireIdentity()` before calling this (no store is read without it).
 */
import { authorize } from "../../core/authorize";
import type { Clock } from "../../core/clock";
import type { Identity } from "../../core/execution/identity";
import type { ContextFact } from "../../core/llm/types";
import type { MemoryServices } from "../../core/memory/services";
import type { RecallResult } from "../../core/recall/recall";
import type { Db } from "../../db/schema";
import type { JobRow } from "../../queues/jobs";
import { principalOfRow } from "./child-job";

const view = (scope: ContextFact["scope"]) => (r: RecallResult): ContextFact => ({ scope, fact_id: r.fact_id, subject: r.subject.name, predicate: r.predicate, object: r.object.name });

export async function retrieveContext(
  deps: { memory: MemoryServices; db: Db; clock: Clock },
  job: Readonly<JobRow>,
  identity: Identity,
  repoId: string,
  query: string,
  limit: number,
): Promise<ContextFact[]> {
  const repo = await deps.memory.repository.recall(identity, repoId, { query, limit });
  // The session scope needs the binding's deadline: the same authorize() the runner ran gives it.
  const { expiresAt } = await authorize(deps.db, deps.clock, principalOfRow(job, identity), identity.session_id);
  const session = await deps.memory.sessions.recall({ identity, ns: repoId, expiresAt }, { query, limit });
  return [...session.results.map(view("session")), ...repo.results.map(view("repository"))];
}

/**
 * Retrieval for AI and fix tasks (WRK-3, WRK-5): durable recall over the
 * repository's memory (code graph + promoted facts) and the caller's own
 * session memory in that repository, under the job's identity — all three
 * (identity, repository, the binding's deadline the session scope needs) as
 * the runner's recheck before work resolved them.
 */
import type { ContextFact } from "../../core/llm/types";
import type { MemoryServices } from "../../core/memory/services";
import type { RecallResult } from "../../core/recall/recall";
import type { RepoJobAuthorized } from "../handler";

const view = (scope: ContextFact["scope"]) => (r: RecallResult): ContextFact => ({ scope, fact_id: r.fact_id, subject: r.subject.name, predicate: r.predicate, object: r.object.name });

export async function retrieveContext(memory: MemoryServices, auth: RepoJobAuthorized, query: string, limit: number): Promise<ContextFact[]> {
  const { identity, expiresAt, repo } = auth;
  const repoFacts = await memory.repository.recall(identity, repo.repoId, { query, limit });
  const session = await memory.sessions.recall({ identity, ns: repo.repoId, expiresAt }, { query, limit });
  return [...session.results.map(view("session")), ...repoFacts.results.map(view("repository"))];
}

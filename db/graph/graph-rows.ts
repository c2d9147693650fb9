/**
 * Row shapes the graph adapters (Neo4j, HugeGraph) read back from their
 * servers, and their conversion to the store contracts' types. Property
 * documents travel as JSON strings: graph servers store flat properties.
 */
import type { RepoFact } from "../../core/memory/repository-store";

/** A session-memory entity as stored (SessionMemoryEntity). */
export interface StoredEntity {
  id: string;
  name: string;
  type: string;
  doc: string;
}

/** A session-memory fact as stored (SESSION_FACT). */
export interface StoredFact {
  fact_id: string;
  subject_id: string;
  predicate: string;
  object_id: string;
  doc: string;
}

/** A durable fact with both endpoints, as a repository-memory read returns it. */
export interface RepoFactRow {
  fact_id: string;
  subject: { id: string; name: string; type: string };
  predicate: string;
  object: { id: string; name: string; type: string };
  origin_session_id: string | null;
  props: string | null;
}

export function toRepoFact(r: RepoFactRow): RepoFact {
  const props = r.props ? (JSON.parse(r.props) as { source?: unknown }) : {};
  return {
    fact_id: r.fact_id,
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    // Legacy records have none; never fabricate one (MEM-6).
    origin_session_id: r.origin_session_id ?? null,
    ...(typeof props.source === "string" ? { source: props.source } : {}),
  };
}

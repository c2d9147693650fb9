/**
 * Row shapes the graph adapters (Neo4j, HugeGraph) read back from their
 * servers, and their conversion to the store contracts' types. Property
 * documents travel as JSON strings: graph servers store flat properties.
 */
import { enforceQuotas, type RootState } from "../../core/memory/quotas";
import { readEdgeProps } from "../../core/memory/repository-history";
import type { RepoFact } from "../../core/memory/repository-store";
import type { ScopeKey, ScopeSnapshot } from "../../core/memory/types";

/** A stored property document (JSON text; absent = empty). */
export function parseDoc<T>(doc: string | null | undefined): T {
  return (doc ? JSON.parse(doc) : {}) as T;
}

/** A session-memory scope root as stored (SessionMemoryScope): its state and its document. */
export interface StoredRoot extends RootState {
  doc: string;
}

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

/** The counts a graph adapter's write read returns (own namespace excluded from the live facts). */
export interface ScopeCounts {
  tenant_roots: number;
  session_roots: number;
  tenant_live_facts: number;
  session_live_facts: number;
}

/** The quota check (core/memory/quotas.ts) over those counts, for a commit of `factsAfter` facts. */
export function enforceScopeQuotas(st: ScopeCounts, creatingRoot: boolean, factsAfter: number): void {
  enforceQuotas({
    creatingRoot,
    sessionRoots: st.session_roots,
    tenantRoots: st.tenant_roots,
    sessionLiveFactsElsewhere: st.session_live_facts,
    tenantLiveFactsElsewhere: st.tenant_live_facts,
    factsAfter,
  });
}

/** A live scope's snapshot from a load's read (root, entities, facts), in the store contract's shape. */
export function toSnapshot(key: ScopeKey, root: StoredRoot, entities: StoredEntity[], facts: StoredFact[]): ScopeSnapshot {
  return {
    key,
    subject_id: root.subject_id,
    revision: root.revision,
    expires_at: root.expires_at,
    doc: parseDoc(root.doc),
    entities: entities.map((e) => ({ id: e.id, name: e.name, type: e.type, doc: parseDoc(e.doc) })),
    facts: facts.map((f) => ({ fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc: parseDoc(f.doc) })),
  };
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
  return {
    fact_id: r.fact_id,
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    // Legacy records have none; never fabricate one (MEM-6).
    origin_session_id: r.origin_session_id ?? null,
    ...readEdgeProps(r.props),
  };
}

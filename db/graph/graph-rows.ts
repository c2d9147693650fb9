/**
 * Row shapes the graph adapters (Neo4j, HugeGraph) read back from their
 * servers, and their conversion to the store contracts' types. Property
 * documents travel as JSON strings: graph servers store flat properties.
 */
import type { RootState } from "../../core/memory/quotas";
import { readEdgeProps } from "../../core/memory/repository-history";
import type { RepoFact } from "../../core/memory/repository-store";
import type { LoadRead, WriteState } from "../../core/memory/session-protocol";

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

/** What a graph adapter's write read returns (own namespace excluded from the live facts). */
export interface StoredWriteState {
  revoked: boolean;
  other_subject: boolean;
  root: StoredRoot | null;
  tenant_roots: number;
  session_roots: number;
  tenant_live_facts: number;
  session_live_facts: number;
}

/** That read in the protocol's shape (core/memory/session-protocol.ts). */
export function writeStateOf(st: StoredWriteState): WriteState {
  return {
    revoked: st.revoked,
    otherSubject: st.other_subject,
    root: st.root,
    sessionRoots: st.session_roots,
    tenantRoots: st.tenant_roots,
    sessionLiveFactsElsewhere: st.session_live_facts,
    tenantLiveFactsElsewhere: st.tenant_live_facts,
  };
}

/** What a load read (tombstone, subject, root, and the content of a readable root) in the protocol's shape. */
export function loadReadOf(r: { revoked: boolean; other_subject: boolean; root: StoredRoot | null; entities: StoredEntity[]; facts: StoredFact[] }): LoadRead {
  return {
    revoked: r.revoked,
    otherSubject: r.other_subject,
    root: r.root,
    content: {
      doc: parseDoc(r.root?.doc),
      entities: r.entities.map((e) => ({ id: e.id, name: e.name, type: e.type, doc: parseDoc(e.doc) })),
      facts: r.facts.map((f) => ({ fact_id: f.fact_id, subject_id: f.subject_id, predicate: f.predicate, object_id: f.object_id, doc: parseDoc(f.doc) })),
    },
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

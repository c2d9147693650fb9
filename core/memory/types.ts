/**
 * Session-memory records (MEM-2). A scope is one (tenant, session, ns) triple;
 * `ns` is the repository id of the route. Entities and facts carry the same
 * three scope fields in every adapter; their IDs are compound (derived from
 * the scope and the content, see ids.ts), so equal names in two sessions
 * never share an ID.
 */

/** The key of one namespace of one session of one tenant. */
export interface ScopeKey {
  readonly tenant_id: string;
  readonly session_id: string;
  readonly ns: string;
}

/** Who writes: the scope key plus the subject that owns the session. */
export interface ScopeOwner extends ScopeKey {
  readonly subject_id: string;
}

/** The key alone, without the owner's other fields. */
export function scopeKeyOf(o: ScopeKey): ScopeKey {
  return { tenant_id: o.tenant_id, session_id: o.session_id, ns: o.ns };
}

export interface EntityDoc {
  /** Other names the entity is known by (bounded; redacted). */
  aliases?: string[];
}

export interface SessionEntity {
  /** Compound entity ID: `se_` + hash(scope, type, name). */
  id: string;
  name: string;
  /** "" when the triple gave no type. */
  type: string;
  doc: EntityDoc;
}

export interface FactDoc {
  /** Where the fact came from (redacted free text). */
  source?: string;
  /** Epoch ms, platform clock: when this namespace learned the fact (absent on facts stored before validity existed). */
  valid_from?: number;
  /** Epoch ms, caller's clock: when the runtime says the fact was observed, if it said. */
  observed_at?: number;
}

/**
 * One interval during which a fact was current and then stopped being:
 * superseded by other facts or retracted. Kept in the namespace's history
 * (core/memory/history.ts), never in the live snapshot.
 */
export interface FactVersion {
  fact_id: string;
  subject_id: string;
  predicate: string;
  object_id: string;
  source?: string;
  /** Epoch ms, platform clock (0 when the fact predates validity). */
  valid_from: number;
  /** Epoch ms, platform clock: when it stopped being current. */
  valid_to: number;
  observed_at?: number;
  /** The session that learned the fact (the namespace's own, or the exporter's for imported history). */
  session_id: string;
  ended: "superseded" | "retracted";
  /** The facts that replaced it (empty for a retraction). */
  replaced_by: string[];
}

export interface SessionFact {
  /** Compound fact ID: `sf_` + hash(scope, subject_id, predicate, object_id). */
  fact_id: string;
  subject_id: string;
  predicate: string;
  object_id: string;
  doc: FactDoc;
}

/** The content a commit replaces the namespace with. */
export interface SnapshotContent {
  /** The scope's own bounded JSON doc. */
  doc: Record<string, unknown>;
  entities: SessionEntity[];
  facts: SessionFact[];
}

/** The authoritative snapshot of one namespace, as loaded. */
export interface ScopeSnapshot extends SnapshotContent {
  key: ScopeKey;
  subject_id: string;
  /** 0 = the scope does not exist yet. */
  revision: number;
  /** Epoch ms: the binding's deadline, fixed when the scope was created. */
  expires_at: number;
}

export interface CommitInput {
  owner: ScopeOwner;
  /** The revision the writer read (0 when creating the scope). */
  expectedRevision: number;
  /** The binding's deadline (epoch ms); must equal the stored one once the scope exists. */
  expiresAt: number;
  content: SnapshotContent;
  /** Epoch ms, the caller's clock. */
  now: number;
}

export interface CommitResult {
  revision: number;
}

/** What one cleanup batch did. */
export interface PurgeResult {
  removed: number;
  /** true when nothing is left to remove. */
  done: boolean;
}

/** A triple as the API takes it (HTTP-4a). */
export interface TripleInput {
  subject: string;
  predicate: string;
  object: string;
  subject_type?: string | undefined;
  object_type?: string | undefined;
}

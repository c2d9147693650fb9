/**
 * The difference between a namespace's stored content and the snapshot a
 * commit writes, so every adapter writes only what changed. Stored documents
 * are compared as JSON text against the new documents' JSON text.
 */
import type { SessionEntity, SessionFact, SnapshotContent } from "./types";

/** What an adapter read back of one stored entity / fact (documents as JSON text). */
export interface StoredEntityDoc {
  id: string;
  name: string;
  doc: string;
}
export interface StoredFactDoc {
  fact_id: string;
  doc: string;
}

export interface ContentDiff<E extends StoredEntityDoc, F extends StoredFactDoc> {
  /** Stored rows the snapshot no longer holds. */
  dropFacts: F[];
  dropEntities: E[];
  /** New rows, and rows whose name (entities) or document changed; `doc` is the new document's JSON text. */
  addEntities: Array<{ entity: SessionEntity; doc: string }>;
  changedEntities: Array<{ entity: SessionEntity; doc: string }>;
  addFacts: Array<{ fact: SessionFact; doc: string }>;
  changedFacts: Array<{ fact: SessionFact; doc: string }>;
}

export function diffContent<E extends StoredEntityDoc, F extends StoredFactDoc>(old: { entities: E[]; facts: F[] }, content: SnapshotContent): ContentDiff<E, F> {
  const oldEntities = new Map(old.entities.map((e) => [e.id, e]));
  const oldFacts = new Map(old.facts.map((f) => [f.fact_id, f]));
  const newEntityIds = new Set(content.entities.map((e) => e.id));
  const newFactIds = new Set(content.facts.map((f) => f.fact_id));
  const diff: ContentDiff<E, F> = {
    dropFacts: [...oldFacts.values()].filter((f) => !newFactIds.has(f.fact_id)),
    dropEntities: [...oldEntities.values()].filter((e) => !newEntityIds.has(e.id)),
    addEntities: [],
    changedEntities: [],
    addFacts: [],
    changedFacts: [],
  };
  for (const entity of content.entities) {
    const prev = oldEntities.get(entity.id);
    const doc = JSON.stringify(entity.doc);
    if (!prev) diff.addEntities.push({ entity, doc });
    else if (prev.name !== entity.name || prev.doc !== doc) diff.changedEntities.push({ entity, doc });
  }
  for (const fact of content.facts) {
    const prev = oldFacts.get(fact.fact_id);
    const doc = JSON.stringify(fact.doc);
    if (!prev) diff.addFacts.push({ fact, doc });
    else if (prev.doc !== doc) diff.changedFacts.push({ fact, doc });
  }
  return diff;
}

/**
 * The canonical snapshot of one namespace and the checks every commit runs.
 *
 * `checkSnapshot` is the single validation both the engine (before it calls an
 * adapter) and every adapter (inside its transaction) run, so a write that
 * bypasses the engine meets the same rules: compound IDs that match the scope
 * and content, fact endpoints inside the same snapshot (same scope), valid
 * predicates and names, and the per-namespace limits of MEM-3.
 *
 * The serialized size (MAX_SNAPSHOT_BYTES) is measured on a canonical compact
 * encoding that is the same for every adapter: entities sorted by ID as
 * `[name, type, aliases?]`, facts as `[subjectIndex, predicate, objectIndex,
 * doc?]`, plus the scope doc without its fact history (history has its own
 * bounds, core/memory/history.ts). IDs are not serialized: they are derived.
 */
import { AppError, limitError } from "../errors";
import {
  MAX_ENTITIES_PER_NAMESPACE,
  MAX_ENTITY_NAME_CHARS,
  MAX_FACTS_PER_NAMESPACE,
  MAX_SNAPSHOT_BYTES,
  MAX_SOURCE_CHARS,
} from "../limits";
import { checkHistory, liveDoc } from "./history";
import { entityId, factId } from "./ids";
import type { ScopeKey, SnapshotContent } from "./types";

export const PREDICATE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const TYPE_PATTERN = /^[A-Za-z0-9_.:-]{0,64}$/;
export const MAX_ALIASES = 8;

export function serializeSnapshot(content: SnapshotContent): string {
  const entities = [...content.entities].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index = new Map(entities.map((e, i) => [e.id, i]));
  const facts = [...content.facts].sort((a, b) => (a.fact_id < b.fact_id ? -1 : a.fact_id > b.fact_id ? 1 : 0));
  return JSON.stringify({
    d: liveDoc(content.doc),
    e: entities.map((e) => (e.doc.aliases?.length ? [e.name, e.type, e.doc.aliases] : [e.name, e.type])),
    f: facts.map((f) => {
      const row: unknown[] = [index.get(f.subject_id) ?? -1, f.predicate, index.get(f.object_id) ?? -1];
      if (f.doc.source !== undefined) row.push(f.doc.source);
      return row;
    }),
  });
}

export function snapshotBytes(content: SnapshotContent): number {
  return Buffer.byteLength(serializeSnapshot(content), "utf8");
}

export function validName(name: unknown): name is string {
  return typeof name === "string" && name.trim().length >= 1 && name.length <= MAX_ENTITY_NAME_CHARS;
}

function invalid(field: string): AppError {
  return new AppError("validation_failed", { message: `The memory snapshot is not valid: ${field}.`, details: { field } });
}

/**
 * Throws on the first problem; returns the serialized size. Limits are checked
 * before structure-heavy work so an oversize snapshot fails fast, and in a
 * fixed order (facts, entities, bytes) so the error names the same limit in
 * every adapter.
 */
export function checkSnapshot(key: ScopeKey, content: SnapshotContent): number {
  if (!content || typeof content !== "object" || !Array.isArray(content.entities) || !Array.isArray(content.facts)) throw invalid("snapshot");
  if (!content.doc || typeof content.doc !== "object" || Array.isArray(content.doc)) throw invalid("doc");
  if (content.facts.length > MAX_FACTS_PER_NAMESPACE) throw limitError("facts_per_namespace", MAX_FACTS_PER_NAMESPACE);
  if (content.entities.length > MAX_ENTITIES_PER_NAMESPACE) throw limitError("entities_per_namespace", MAX_ENTITIES_PER_NAMESPACE);

  const ids = new Set<string>();
  for (const e of content.entities) {
    if (!validName(e.name)) throw invalid("entity.name");
    if (typeof e.type !== "string" || !TYPE_PATTERN.test(e.type)) throw invalid("entity.type");
    if (!e.doc || typeof e.doc !== "object") throw invalid("entity.doc");
    const aliases = e.doc.aliases;
    if (aliases !== undefined && (!Array.isArray(aliases) || aliases.length > MAX_ALIASES || !aliases.every(validName))) throw invalid("entity.aliases");
    if (e.id !== entityId(key, e.type, e.name)) throw invalid("entity.id");
    if (ids.has(e.id)) throw invalid("entity.duplicate");
    ids.add(e.id);
  }
  const factIds = new Set<string>();
  for (const f of content.facts) {
    if (typeof f.predicate !== "string" || !PREDICATE_PATTERN.test(f.predicate)) throw invalid("fact.predicate");
    if (!ids.has(f.subject_id) || !ids.has(f.object_id)) throw invalid("fact.endpoint");
    if (f.fact_id !== factId(key, f.subject_id, f.predicate, f.object_id)) throw invalid("fact.id");
    if (factIds.has(f.fact_id)) throw invalid("fact.duplicate");
    if (!f.doc || typeof f.doc !== "object") throw invalid("fact.doc");
    if (f.doc.source !== undefined && (typeof f.doc.source !== "string" || f.doc.source.length > MAX_SOURCE_CHARS)) throw invalid("fact.source");
    if (f.doc.valid_from !== undefined && !(Number.isSafeInteger(f.doc.valid_from) && f.doc.valid_from >= 0)) throw invalid("fact.valid_from");
    if (f.doc.observed_at !== undefined && !(Number.isSafeInteger(f.doc.observed_at) && f.doc.observed_at >= 0)) throw invalid("fact.observed_at");
    factIds.add(f.fact_id);
  }
  checkHistory(key, content, ids);
  const bytes = snapshotBytes(content);
  if (bytes > MAX_SNAPSHOT_BYTES) throw limitError("snapshot_bytes", MAX_SNAPSHOT_BYTES);
  return bytes;
}

export function emptyContent(): SnapshotContent {
  return { doc: {}, entities: [], facts: [] };
}

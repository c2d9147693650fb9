/** Builders for contract tests: valid compound-ID snapshots and fresh scopes. */
import { randomBytes } from "node:crypto";
import { entityId, factId } from "../../core/memory/ids";
import type { ScopeKey, ScopeOwner, SessionEntity, SessionFact, SnapshotContent } from "../../core/memory/types";
import { makeIdentity, type Identity } from "../../core/execution/identity";

export const rid = (p: string) => `${p}-${randomBytes(5).toString("hex")}`;

export function owner(o: Partial<ScopeOwner> = {}): ScopeOwner {
  return { tenant_id: o.tenant_id ?? rid("org"), subject_id: o.subject_id ?? rid("usr"), session_id: o.session_id ?? rid("ses"), ns: o.ns ?? rid("repo") };
}

export function identityOf(o: ScopeOwner): Identity {
  return makeIdentity({ tenant_id: o.tenant_id, subject_id: o.subject_id, session_id: o.session_id, parent_session_id: o.session_id });
}

export function keyOf(o: ScopeKey): ScopeKey {
  return { tenant_id: o.tenant_id, session_id: o.session_id, ns: o.ns };
}

/** A snapshot holding `triples` ([subject, predicate, object]); entity names are untyped. */
export function content(key: ScopeKey, triples: Array<[string, string, string]>, doc: Record<string, unknown> = {}): SnapshotContent {
  const entities = new Map<string, SessionEntity>();
  const facts = new Map<string, SessionFact>();
  const ent = (name: string) => {
    const id = entityId(key, "", name);
    if (!entities.has(id)) entities.set(id, { id, name, type: "", doc: {} });
    return id;
  };
  for (const [s, p, o] of triples) {
    const si = ent(s);
    const oi = ent(o);
    const id = factId(key, si, p, oi);
    facts.set(id, { fact_id: id, subject_id: si, predicate: p, object_id: oi, doc: {} });
  }
  return { doc, entities: [...entities.values()], facts: [...facts.values()] };
}

/** `n` distinct compact facts over few short entity names (so 512 of them fit in 24 KiB). */
export function manyTriples(n: number, offset = 0): Array<[string, string, string]> {
  const side = Math.ceil(Math.sqrt(n + offset)) + 1;
  const out: Array<[string, string, string]> = [];
  for (let i = offset; i < offset + n; i++) out.push([`a${Math.floor(i / side)}`, "r", `b${i % side}`]);
  return out;
}

/** `n` entities and no facts. */
export function manyEntities(key: ScopeKey, n: number): SnapshotContent {
  const entities: SessionEntity[] = [];
  for (let i = 0; i < n; i++) {
    const name = `e${i}`;
    entities.push({ id: entityId(key, "", name), name, type: "", doc: {} });
  }
  return { doc: {}, entities, facts: [] };
}

/**
 * What a write's input becomes in one session namespace, checked before any
 * snapshot is read: an upsert's triples, and an import file.
 */
import { MAX_SINGLE_VALUED_PREDICATES, MAX_SOURCE_CHARS, MAX_SUPERSEDES, MAX_TRIPLES_PER_UPSERT } from "../limits";
import { redact } from "../redact";
import { entityId, factId, SESSION_FACT_ID } from "./ids";
import { bad, cleanName, instant } from "./input";
import { PREDICATE_PATTERN, TYPE_PATTERN } from "./snapshot";
import { parseImport } from "./transfer";
import type { FactVersion, ScopeKey, SessionEntity, SessionFact, TripleInput } from "./types";

/** An upsert as the caller sends it (engine.ts SessionMemoryEngine.upsert). */
export interface UpsertInput {
  triples: TripleInput[];
  source?: string | undefined;
  /** Live facts this upsert replaces (all or nothing: an unknown ID refuses the call). */
  supersedes?: string[] | undefined;
  /** Predicates to declare single-valued in this namespace (kept for good). */
  single_valued?: string[] | undefined;
  /** Epoch ms, caller's clock: when the runtime observed these facts. */
  observed_at?: number | undefined;
}

/** An upsert checked: the source redacted, each triple's names redacted and its entities' IDs derived for `key`. */
export async function cleanUpsert(key: ScopeKey, input: UpsertInput) {
  if (!Array.isArray(input.triples) || input.triples.length < 1 || input.triples.length > MAX_TRIPLES_PER_UPSERT) throw bad("triples");
  let source: string | undefined;
  if (input.source !== undefined) {
    if (typeof input.source !== "string" || input.source.length > MAX_SOURCE_CHARS) throw bad("source");
    source = (await redact(input.source)).text.slice(0, MAX_SOURCE_CHARS);
  }
  const supersedes = input.supersedes ?? [];
  if (!Array.isArray(supersedes) || supersedes.length > MAX_SUPERSEDES || !supersedes.every((id) => typeof id === "string" && SESSION_FACT_ID.test(id))) {
    throw bad("supersedes");
  }
  const declared = input.single_valued ?? [];
  if (!Array.isArray(declared) || declared.length > MAX_SINGLE_VALUED_PREDICATES || !declared.every((p) => typeof p === "string" && PREDICATE_PATTERN.test(p))) {
    throw bad("single_valued");
  }
  const observedAt = instant(input.observed_at, "observed_at");
  const clean: Array<{ s: SessionEntity; p: string; o: SessionEntity }> = [];
  for (const [i, t] of input.triples.entries()) {
    if (typeof t.predicate !== "string" || !PREDICATE_PATTERN.test(t.predicate)) throw bad(`triples.${i}.predicate`);
    const st = t.subject_type ?? "";
    const ot = t.object_type ?? "";
    if (typeof st !== "string" || !TYPE_PATTERN.test(st)) throw bad(`triples.${i}.subject_type`);
    if (typeof ot !== "string" || !TYPE_PATTERN.test(ot)) throw bad(`triples.${i}.object_type`);
    const sn = await cleanName(t.subject, `triples.${i}.subject`);
    const on = await cleanName(t.object, `triples.${i}.object`);
    clean.push({
      s: { id: entityId(key, st, sn), name: sn, type: st, doc: {} },
      p: t.predicate,
      o: { id: entityId(key, ot, on), name: on, type: ot, doc: {} },
    });
  }
  return { source, supersedes, declared, observedAt, clean };
}

/**
 * What an import file (transfer.ts) becomes in one session namespace: names
 * and sources redacted, entity and fact IDs derived for the target scope, the
 * history's intervals in this namespace's clock (never past `now`), the
 * single-valued predicates it declares. Facts of the file that land on the
 * same ID are one; two live facts in one single-valued slot refuse it.
 */

export interface ImportedContent {
  entities: Map<string, SessionEntity>;
  facts: Map<string, SessionFact>;
  /** Oldest end first. */
  history: FactVersion[];
  single: Set<string>;
}

/** Parses, checks and rewrites a file for `key`; throws on the first bad line before anything is written. */
export async function importedContent(key: ScopeKey, text: string, now: number): Promise<ImportedContent> {
  const p = parseImport(text);
  const at = (v: string | null | undefined): number | undefined => (v === null || v === undefined ? undefined : Math.min(Date.parse(v), now));
  const entities = new Map<string, SessionEntity>();
  const remap = new Map<string, string>();
  for (const [i, e] of p.nodes.entries()) {
    const n = await cleanName(e.name, `lines.entity.${i}.name`);
    const aliases = [];
    for (const a of e.aliases ?? []) aliases.push(await cleanName(a, `lines.entity.${i}.aliases`));
    const ent: SessionEntity = { id: entityId(key, e.type, n), name: n, type: e.type, doc: aliases.length ? { aliases } : {} };
    if (!entities.has(ent.id)) entities.set(ent.id, ent);
    remap.set(e.id, ent.id);
  }
  const cleanSource = async (v: string | undefined) => (v === undefined ? undefined : (await redact(v)).text.slice(0, MAX_SOURCE_CHARS));
  const factIdOf = new Map<string, string>();
  const facts = new Map<string, SessionFact>();
  for (const f of p.facts) {
    const sid = remap.get(f.subject_id)!;
    const oid = remap.get(f.object_id)!;
    const fid = factId(key, sid, f.predicate, oid);
    factIdOf.set(f.fact_id, fid);
    if (facts.has(fid)) continue;
    const src = await cleanSource(f.source);
    const vf = at(f.valid_from);
    const ob = at(f.observed_at);
    facts.set(fid, {
      fact_id: fid,
      subject_id: sid,
      predicate: f.predicate,
      object_id: oid,
      doc: { ...(src !== undefined ? { source: src } : {}), ...(vf !== undefined ? { valid_from: vf } : {}), ...(ob !== undefined ? { observed_at: ob } : {}) },
    });
  }
  for (const v of p.history) factIdOf.set(v.fact_id, factId(key, remap.get(v.subject_id)!, v.predicate, remap.get(v.object_id)!));
  const history: FactVersion[] = [];
  for (const v of p.history) {
    const src = await cleanSource(v.source);
    const to = at(v.valid_to)!;
    const from = Math.min(at(v.valid_from) ?? 0, to);
    const ob = at(v.observed_at);
    history.push({
      fact_id: factIdOf.get(v.fact_id)!,
      subject_id: remap.get(v.subject_id)!,
      predicate: v.predicate,
      object_id: remap.get(v.object_id)!,
      ...(src !== undefined ? { source: src } : {}),
      valid_from: from,
      valid_to: to,
      ...(ob !== undefined ? { observed_at: ob } : {}),
      session_id: v.session_id,
      ended: v.ended,
      replaced_by: v.replaced_by.flatMap((r) => (factIdOf.has(r) ? [factIdOf.get(r)!] : [])),
    });
  }
  history.sort((a, b) => a.valid_to - b.valid_to);
  const single = new Set(p.header.single_valued);
  const slots = new Set<string>();
  for (const f of facts.values()) {
    if (!single.has(f.predicate)) continue;
    const slot = `${f.subject_id}\u0000${f.predicate}`;
    if (slots.has(slot)) throw bad("single_valued");
    slots.add(slot);
  }
  return { entities, facts, history, single };
}

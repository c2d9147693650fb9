/**
 * From extracted statements to the namespace's next snapshot (pure; the
 * engine commits it). A statement is stored as one fact
 * `<topic> <kind> <statement text>`: the topic an entity of the statement's
 * main subject, the object an entity of type `statement` whose name is the
 * text (so lexical and dense recall find it by its words and meaning), the
 * fact's `source` naming the turns it came from. Its code links are stored
 * beside it as ordinary triples with the same source.
 *
 *  - A repeat (the same text, or ≥ REPEAT_SIMILARITY of its words) adds no
 *    fact; the stored one cites the new turn too (up to MAX_REFS).
 *  - A correction supersedes the statement it corrects (the live one that
 *    shares its words and, when the correction names it, the replaced value);
 *    so does a new value for the same topic and slot ("the timeout is 45 s"
 *    after "the timeout is 30 s"). The old fact goes to history as today.
 *  - The namespace budget: near the live limits (facts, entities, snapshot
 *    bytes, or a full session/tenant quota: `growth: false`) new statements
 *    are shortened, then extracted facts — old and new — compete by salience
 *    and recency, and the least useful are dropped (counted). Facts a runtime
 *    wrote itself are never dropped. Nothing is refused for size.
 */
import { MAX_ENTITIES_PER_NAMESPACE, MAX_ENTITY_NAME_CHARS, MAX_FACTS_PER_NAMESPACE, MAX_HISTORY_BYTES, MAX_HISTORY_PER_NAMESPACE, MAX_SNAPSHOT_BYTES, MAX_SOURCE_CHARS } from "../../limits";
import type { Statement } from "../extractor";
import { endFact, historyOf, withMeta, singleValuedOf } from "../history";
import { entityId, factId, normalizeName } from "../ids";
import { snapshotBytes, PREDICATE_PATTERN, TYPE_PATTERN } from "../snapshot";
import type { FactVersion, ScopeKey, SessionEntity, SessionFact, SnapshotContent } from "../types";
import { classify } from "./classify";
import { contentTerms, jaccard, overlap } from "./similar";

export const STATEMENT_TYPE = "statement";
/** Facts whose source starts with this were extracted from turns (and may be dropped for the budget). */
export const OFFLOAD_SOURCE = "offload ";
export const MAX_STATEMENT_CHARS = 240;
export const SHORT_STATEMENT_CHARS = 140;
const MAX_REFS = 3;
const REPEAT_SIMILARITY = 0.8;
/** Headroom left under each live limit, so a runtime's own upserts still fit beside extraction. */
export const BUDGET = { facts: MAX_FACTS_PER_NAMESPACE - 16, entities: MAX_ENTITIES_PER_NAMESPACE - 32, bytes: MAX_SNAPSHOT_BYTES - 1024 };
const SHORTEN_FROM_BYTES = Math.floor(MAX_SNAPSHOT_BYTES * 0.6);

export interface ExtractionStats {
  offloads: number;
  turns: number;
  statements: number;
  stored: number;
  repeats: number;
  superseded: number;
  dropped: number;
  shortened: number;
}

export const NO_STATS: ExtractionStats = { offloads: 0, turns: 0, statements: 0, stored: 0, repeats: 0, superseded: 0, dropped: 0, shortened: 0 };

export interface PlanInput {
  key: ScopeKey;
  sessionId: string;
  now: number;
  current: SnapshotContent;
  statements: Statement[];
  /** Provenance label of each turn of the call ("turn <id>" or "offload <id> turn <n>"). */
  refs: string[];
  turns: number;
  /** false when the session's or tenant's live-fact quota is full: new facts may only replace extracted ones. */
  growth: boolean;
}

export interface Plan {
  content: SnapshotContent;
  added: SessionEntity[];
  /** What this call did (the call's own counts; the namespace keeps the running totals in its doc). */
  stats: ExtractionStats;
}

interface Live {
  fact: SessionFact;
  text: string;
  topic: string;
  terms: Set<string>;
}

/** Cuts a statement at a word boundary, marking the cut. */
export function shorten(text: string, max: number): string {
  const t = normalizeName(text);
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const at = cut.lastIndexOf(" ");
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}

function refsOf(sources: string | undefined): string[] {
  if (!sources?.startsWith(OFFLOAD_SOURCE)) return [];
  return sources.slice(OFFLOAD_SOURCE.length).split("; ");
}

function sourceOf(refs: string[]): string {
  return `${OFFLOAD_SOURCE}${[...new Set(refs)].slice(-MAX_REFS).join("; ")}`.slice(0, MAX_SOURCE_CHARS);
}

/** Differing specific values (numbers, versions, code) between two statements on one slot. */
function newValue(a: string, b: string): boolean {
  const vals = (s: string) => new Set((s.match(/`[^`]+`|\b\d[\w.,:%/-]*|\b[\w-]+\.[a-z]{1,4}\b|@[\w-]+/g) ?? []).map((v) => v.toLowerCase()));
  const va = vals(a);
  const vb = vals(b);
  if (va.size === 0 || vb.size === 0) return false;
  for (const v of va) if (!vb.has(v)) return true;
  return false;
}

const VALUE_SLOTS = new Set(["has_value", "located_in", "owned_by", "status", "prefers", "decided"]);

export function planExtraction(input: PlanInput): Plan {
  const { key, now, current } = input;
  const entities = new Map(current.entities.map((e) => [e.id, e]));
  const facts = new Map(current.facts.map((f) => [f.fact_id, f]));
  const history: FactVersion[] = [...historyOf(current)];
  const added = new Map<string, SessionEntity>();
  const stats: ExtractionStats = { ...NO_STATS, offloads: 1, turns: input.turns, statements: input.statements.length };
  const maxChars = snapshotBytes(current) > SHORTEN_FROM_BYTES ? SHORT_STATEMENT_CHARS : MAX_STATEMENT_CHARS;

  const before = new Set(current.facts.map((f) => f.fact_id));
  const live: Live[] = [];
  for (const f of facts.values()) {
    const o = entities.get(f.object_id);
    const s = entities.get(f.subject_id);
    if (o?.type === STATEMENT_TYPE && s) live.push({ fact: f, text: o.name, topic: s.name.toLowerCase(), terms: contentTerms(o.name) });
  }
  const entity = (name: string, type: string): SessionEntity => {
    const n = normalizeName(name).slice(0, MAX_ENTITY_NAME_CHARS);
    const t = TYPE_PATTERN.test(type) ? type : "";
    const id = entityId(key, t, n);
    const have = entities.get(id);
    if (have) return have;
    const e: SessionEntity = { id, name: n, type: t, doc: {} };
    entities.set(id, e);
    added.set(id, e);
    return e;
  };
  const historyFull = () => history.length >= MAX_HISTORY_PER_NAMESPACE || Buffer.byteLength(JSON.stringify(history)) > MAX_HISTORY_BYTES - 4096;
  const end = (target: Live, by: string) => {
    facts.delete(target.fact.fact_id);
    live.splice(live.indexOf(target), 1);
    if (!historyFull()) history.push(endFact(target.fact, input.sessionId, now, "superseded", [by]));
    stats.superseded++;
  };

  for (const st of input.statements) {
    const raw = normalizeName(st.text);
    if (!raw) continue;
    const text = shorten(raw, maxChars);
    if (text !== raw) stats.shortened++;
    const terms = contentTerms(text);
    const refs = st.turns.filter((i) => Number.isInteger(i) && i >= 0 && i < input.refs.length).map((i) => input.refs[i]!);
    const topicName = normalizeName(st.about[0]?.name ?? "").slice(0, MAX_ENTITY_NAME_CHARS) || "conversation";
    const topicType = st.about[0]?.type ?? "topic";
    let kind: string = PREDICATE_PATTERN.test(st.kind) ? st.kind : "states";

    // A repeat: the same statement, or nearly the same words (and no new value).
    const same = live.find((l) => l.text.toLowerCase() === text.toLowerCase() || (jaccard(l.terms, terms) >= REPEAT_SIMILARITY && !newValue(text, l.text)));
    if (same) {
      stats.repeats++;
      if (same.fact.doc.source?.startsWith(OFFLOAD_SOURCE)) {
        const merged: SessionFact = { ...same.fact, doc: { ...same.fact.doc, source: sourceOf([...refsOf(same.fact.doc.source), ...refs]) } };
        facts.set(merged.fact_id, merged);
        same.fact = merged;
      }
      continue;
    }

    // What it replaces: the corrected statement, or an older value of the same slot.
    let target: Live | undefined;
    if (st.corrects) {
      // A correction that names the replaced value replaces a statement holding that value and
      // sharing at least one more word with it; one that names none needs three shared words
      // and a third of all. Never by topic alone: "the TTL is 15 minutes now, not 1 hour" must
      // not replace "tokens are signed with ES256 now".
      const old = contentTerms(st.corrects.old.join(" "));
      let best = 0;
      for (const l of live) {
        const named = overlap(old, l.terms);
        const shared = overlap(terms, l.terms);
        const fits = old.size > 0 ? named >= 1 && shared - overlap(old, terms) >= 1 : shared >= 3 && jaccard(terms, l.terms) >= 0.3;
        const score = shared + 2 * named + (l.topic === topicName.toLowerCase() ? 1 : 0);
        if (fits && score > best) [best, target] = [score, l];
      }
    } else if (VALUE_SLOTS.has(kind)) {
      target = live.find((l) => l.topic === topicName.toLowerCase() && l.fact.predicate === kind && jaccard(l.terms, terms) >= 0.5 && newValue(text, l.text));
    }
    if (target && kind === "corrected") kind = target.fact.predicate;

    const subject = entity(topicName, topicType);
    const object = entity(text, STATEMENT_TYPE);
    const id = factId(key, subject.id, kind, object.id);
    const fact: SessionFact = { fact_id: id, subject_id: subject.id, predicate: kind, object_id: object.id, doc: { source: sourceOf(refs), valid_from: now } };
    if (target && target.fact.fact_id !== id) end(target, id);
    facts.set(id, fact);
    live.push({ fact, text, topic: topicName.toLowerCase(), terms });
    stats.stored++;
    for (const l of st.links ?? []) {
      if (!PREDICATE_PATTERN.test(l.predicate)) continue;
      const a = entity(l.subject, l.subject_type ?? "");
      const b = entity(l.object, l.object_type ?? "");
      if (a.id === b.id) continue;
      const lid = factId(key, a.id, l.predicate, b.id);
      if (!facts.has(lid)) facts.set(lid, { fact_id: lid, subject_id: a.id, predicate: l.predicate, object_id: b.id, doc: { source: sourceOf(refs), valid_from: now } });
    }
  }

  const content = fitBudget({ doc: withMeta(current.doc, { history, single_valued: singleValuedOf(current) }), entities: [...entities.values()], facts: [...facts.values()] }, {
    now,
    growth: input.growth,
    before: current.facts.length,
    fresh: new Set([...facts.keys()].filter((id) => !before.has(id))),
    stats,
  });
  content.doc = { ...content.doc, extraction: { ...addStats(extractionTotals(current.doc), stats), last_at: new Date(now).toISOString() } };
  const kept = new Set(content.entities.map((e) => e.id));
  return { content, added: [...added.values()].filter((e) => kept.has(e.id)), stats };
}

/** The namespace's running extraction counts (kept in its doc), from an older doc and one call's counts. */
export function extractionTotals(doc: Record<string, unknown>): ExtractionStats & { last_at?: string } {
  const raw = doc["extraction"];
  if (!raw || typeof raw !== "object") return { ...NO_STATS };
  const r = raw as Record<string, unknown>;
  const out: ExtractionStats & { last_at?: string } = { ...NO_STATS };
  for (const k of Object.keys(NO_STATS) as Array<keyof ExtractionStats>) out[k] = Number.isSafeInteger(r[k]) ? (r[k] as number) : 0;
  if (typeof r["last_at"] === "string") out.last_at = r["last_at"];
  return out;
}

/** Two sets of extraction counts added up (a namespace's running totals, a process's metrics). */
export function addStats(a: ExtractionStats, b: ExtractionStats): ExtractionStats {
  const out = { ...NO_STATS };
  for (const k of Object.keys(NO_STATS) as Array<keyof ExtractionStats>) out[k] = a[k] + b[k];
  return out;
}

/** A fact's worth in the budget: its statement's salience, a little more the newer it is. */
function worth(f: SessionFact, byId: Map<string, SessionEntity>, now: number): number {
  const o = byId.get(f.object_id);
  const base = o?.type === STATEMENT_TYPE ? classify(o.name, "user").salience : 0.45;
  const ageDays = Math.max(0, (now - (f.doc.valid_from ?? 0)) / 86_400_000);
  return base + 0.1 / (1 + ageDays);
}

/** Drops the least useful extracted facts (and the entities only they used) until the live limits hold. */
function fitBudget(
  content: SnapshotContent,
  opts: { now: number; growth: boolean; before: number; fresh: Set<string>; stats: ExtractionStats },
): SnapshotContent {
  const factCap = opts.growth ? BUDGET.facts : Math.min(BUDGET.facts, opts.before);
  const over = (c: SnapshotContent) => c.facts.length > factCap || c.entities.length > BUDGET.entities || snapshotBytes(c) > BUDGET.bytes;
  let c = content;
  if (!over(c)) return c;
  const byId = new Map(c.entities.map((e) => [e.id, e]));
  const droppable = c.facts
    .filter((f) => f.doc.source?.startsWith(OFFLOAD_SOURCE))
    .map((f) => ({ f, w: worth(f, byId, opts.now) }))
    .sort((a, b) => a.w - b.w || (a.f.fact_id < b.f.fact_id ? -1 : 1));
  const gone = new Set<string>();
  let i = 0;
  while (over(c) && i < droppable.length) {
    const step = Math.max(1, Math.ceil((c.facts.length - factCap) / 2), 4);
    for (const d of droppable.slice(i, i + step)) gone.add(d.f.fact_id);
    i += step;
    c = gc({ ...content, facts: content.facts.filter((f) => !gone.has(f.fact_id)) }, content.facts.filter((f) => gone.has(f.fact_id)));
  }
  opts.stats.dropped += gone.size;
  const isStatement = (f: SessionFact) => byId.get(f.object_id)?.type === STATEMENT_TYPE;
  opts.stats.stored -= content.facts.filter((f) => gone.has(f.fact_id) && opts.fresh.has(f.fact_id) && isStatement(f)).length;
  return c;
}

/** Removes the endpoints of dropped facts that no live fact or history entry names any more. */
function gc(c: SnapshotContent, dropped: SessionFact[]): SnapshotContent {
  const used = new Set<string>();
  for (const f of c.facts) used.add(f.subject_id).add(f.object_id);
  for (const v of historyOf(c)) used.add(v.subject_id).add(v.object_id);
  const orphan = new Set(dropped.flatMap((f) => [f.subject_id, f.object_id]).filter((id) => !used.has(id)));
  return orphan.size === 0 ? c : { ...c, entities: c.entities.filter((e) => !orphan.has(e.id)) };
}

/**
 * Fact history and the single-valued predicate table of one session
 * namespace. Both live in the namespace's own JSON doc (`SnapshotContent.doc`),
 * which every adapter already stores with the root, rewrites on each commit,
 * and empties on clear, expiry and purge — so history is scoped, expired,
 * revoked and erased exactly like the facts, by construction:
 *
 *   doc.single_valued: predicates with at most one live object per subject
 *                      (≤ MAX_SINGLE_VALUED_PREDICATES, sorted, unique);
 *   doc.history:       FactVersion[] — facts that stopped being current
 *                      (superseded or retracted), oldest first,
 *                      ≤ MAX_HISTORY_PER_NAMESPACE entries and
 *                      ≤ MAX_HISTORY_BYTES of JSON.
 *
 * Invariants `checkHistory` enforces for every adapter: each entry's fact ID
 * matches the scope and its endpoints, both endpoints are entities of the
 * snapshot (entities stay until the namespace is cleared), valid_from ≤
 * valid_to, `replaced_by` names well-formed fact IDs. The live-snapshot
 * limits and `snapshot_bytes` never count history; the per-session and
 * per-tenant fact quotas count live facts plus history (`storedFactCount`).
 */
import { AppError, limitError } from "../errors";
import { MAX_HISTORY_BYTES, MAX_HISTORY_PER_NAMESPACE, MAX_SINGLE_VALUED_PREDICATES, MAX_SOURCE_CHARS } from "../limits";
import { factId, SESSION_FACT_ID } from "./ids";
import type { FactVersion, ScopeKey, SessionFact, SnapshotContent } from "./types";

const PREDICATE = /^[a-z][a-z0-9_]{0,63}$/;

function invalid(field: string): AppError {
  return new AppError("validation_failed", { message: `The memory snapshot is not valid: ${field}.`, details: { field } });
}

function badRequest(field: string): AppError {
  return new AppError("validation_failed", { message: `The request is not valid: ${field}.`, details: { field } });
}

/** The namespace's history, oldest first (empty when none). */
export function historyOf(content: Pick<SnapshotContent, "doc">): FactVersion[] {
  const h = content.doc["history"];
  return Array.isArray(h) ? (h as FactVersion[]) : [];
}

/** The namespace's single-valued predicates. */
export function singleValuedOf(content: Pick<SnapshotContent, "doc">): string[] {
  const p = content.doc["single_valued"];
  return Array.isArray(p) ? (p as string[]) : [];
}

/** The doc with history and predicate table replaced (empty lists are left out). */
export function withMeta(doc: Record<string, unknown>, meta: { history: FactVersion[]; single_valued: string[] }): Record<string, unknown> {
  const { history: _h, single_valued: _s, ...rest } = doc;
  void _h;
  void _s;
  return {
    ...rest,
    ...(meta.single_valued.length ? { single_valued: [...new Set(meta.single_valued)].sort() } : {}),
    ...(meta.history.length ? { history: meta.history } : {}),
  };
}

/** The doc as it counts toward `snapshot_bytes`: without history. */
export function liveDoc(doc: Record<string, unknown>): Record<string, unknown> {
  if (!("history" in doc)) return doc;
  const { history: _h, ...rest } = doc;
  void _h;
  return rest;
}

/** Facts a namespace stores, live plus history: what the per-session and per-tenant fact quotas count. */
export function storedFactCount(content: SnapshotContent): number {
  return content.facts.length + historyOf(content).length;
}

function finiteMs(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

/** The fields every ended interval has, in session and in repository history. */
export interface EndedInterval {
  fact_id: string;
  predicate: string;
  source?: string;
  valid_from: number;
  valid_to: number;
  observed_at?: number;
  ended: "superseded" | "retracted";
  replaced_by: string[];
}

/** Bounds and per-entry rules of one history list (session namespace or repository). */
export interface HistoryRules {
  maxEntries: number;
  maxBytes: number;
  /** `details.limit` names of the two bounds. */
  limitNames: [string, string];
  /** The fact ID pattern of `replaced_by` entries. */
  factIdPattern: RegExp;
  /** Scope-specific checks of one entry (IDs derived from the scope, endpoints); the field name of the first problem, or null. */
  entry: (v: Record<string, unknown>) => string | null;
}

/** Throws on the first problem in a history list (limits first). Shared by session and repository history. */
export function checkVersions(raw: unknown, rules: HistoryRules): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) throw invalid("history");
  if (raw.length > rules.maxEntries) throw limitError(rules.limitNames[0], rules.maxEntries);
  if (Buffer.byteLength(JSON.stringify(raw), "utf8") > rules.maxBytes) throw limitError(rules.limitNames[1], rules.maxBytes);
  for (const v of raw as EndedInterval[]) {
    if (!v || typeof v !== "object") throw invalid("history.entry");
    if (typeof v.predicate !== "string" || !PREDICATE.test(v.predicate)) throw invalid("history.predicate");
    if (!finiteMs(v.valid_from) || !finiteMs(v.valid_to) || v.valid_from > v.valid_to) throw invalid("history.validity");
    if (v.observed_at !== undefined && !finiteMs(v.observed_at)) throw invalid("history.observed_at");
    if (v.ended !== "superseded" && v.ended !== "retracted") throw invalid("history.ended");
    if (!Array.isArray(v.replaced_by) || v.replaced_by.length > 512 || !v.replaced_by.every((id) => typeof id === "string" && rules.factIdPattern.test(id))) {
      throw invalid("history.replaced_by");
    }
    if (v.source !== undefined && (typeof v.source !== "string" || v.source.length > MAX_SOURCE_CHARS)) throw invalid("history.source");
    const field = rules.entry(v as unknown as Record<string, unknown>);
    if (field !== null) throw invalid(field);
  }
}

/** Throws on a malformed or oversized single-valued predicate table. */
export function checkSingleValued(sv: unknown): void {
  if (sv === undefined) return;
  if (!Array.isArray(sv) || !sv.every((p) => typeof p === "string" && PREDICATE.test(p))) throw invalid("single_valued");
  if (sv.length > MAX_SINGLE_VALUED_PREDICATES) throw limitError("single_valued_predicates", MAX_SINGLE_VALUED_PREDICATES);
}

/** Throws on the first problem in the history or the predicate table (limits first). */
export function checkHistory(key: ScopeKey, content: SnapshotContent, entityIds: Set<string>): void {
  checkSingleValued(content.doc["single_valued"]);
  checkVersions(content.doc["history"], {
    maxEntries: MAX_HISTORY_PER_NAMESPACE,
    maxBytes: MAX_HISTORY_BYTES,
    limitNames: ["history_per_namespace", "history_bytes"],
    factIdPattern: SESSION_FACT_ID,
    entry: (raw) => {
      const v = raw as unknown as FactVersion;
      if (!entityIds.has(v.subject_id) || !entityIds.has(v.object_id)) return "history.endpoint";
      if (v.fact_id !== factId(key, v.subject_id, v.predicate, v.object_id)) return "history.fact_id";
      if (typeof v.session_id !== "string" || v.session_id.length < 1 || v.session_id.length > 256) return "history.session_id";
      return null;
    },
  });
}

/** The fields of the interval a live fact closes at `now` (its validity as recorded, clamped to now). */
export function endInterval(
  f: { fact_id: string; predicate: string; source?: string | undefined; valid_from?: number | undefined; observed_at?: number | undefined },
  now: number,
  ended: EndedInterval["ended"],
  replacedBy: string[],
): EndedInterval {
  return {
    fact_id: f.fact_id,
    predicate: f.predicate,
    ...(f.source !== undefined ? { source: f.source } : {}),
    valid_from: Math.min(f.valid_from ?? 0, now),
    valid_to: now,
    ...(f.observed_at !== undefined ? { observed_at: f.observed_at } : {}),
    ended,
    replaced_by: replacedBy,
  };
}

/**
 * Which live facts a write ends, and by which of its facts: the IDs named in
 * `supersedes`, and, for each written fact whose predicate is single-valued,
 * every other live fact with the same subject and predicate. `live` holds at
 * least the live facts of those slots; the written facts themselves are never
 * ended. Refuses (400) a written fact named in `supersedes` and two objects
 * for one single-valued slot in the same write.
 */
export function planSupersession(
  live: Iterable<{ fact_id: string; subject_id: string; predicate: string }>,
  written: Array<{ fact_id: string; subject_id: string; predicate: string }>,
  supersedes: string[],
  single: ReadonlySet<string>,
): Map<string, Set<string>> {
  const newIds = new Set(written.map((f) => f.fact_id));
  const ended = new Map<string, Set<string>>();
  for (const id of supersedes) {
    if (newIds.has(id)) throw badRequest("supersedes");
    ended.set(id, new Set(newIds));
  }
  const liveList = [...live];
  const bySlot = new Map<string, string>();
  for (const t of written) {
    if (!single.has(t.predicate)) continue;
    const slot = `${t.subject_id}\u0000${t.predicate}`;
    const other = bySlot.get(slot);
    if (other !== undefined && other !== t.fact_id) throw badRequest("single_valued");
    bySlot.set(slot, t.fact_id);
    for (const f of liveList) {
      if (f.subject_id === t.subject_id && f.predicate === t.predicate && !newIds.has(f.fact_id)) {
        const by = ended.get(f.fact_id) ?? new Set<string>();
        by.add(t.fact_id);
        ended.set(f.fact_id, by);
      }
    }
  }
  return ended;
}

/** Whether a fact current from `from` (undefined: before validity existed) until `to` (null: still current) was current at `asOf`. */
export function currentAt(from: number | undefined, to: number | null, asOf: number): boolean {
  return (from ?? 0) <= asOf && (to === null || asOf < to);
}

/** The history entry a live fact becomes when it stops being current at `now`. */
export function endFact(f: SessionFact, sessionId: string, now: number, ended: FactVersion["ended"], replacedBy: string[]): FactVersion {
  const i = endInterval({ fact_id: f.fact_id, predicate: f.predicate, source: f.doc.source, valid_from: f.doc.valid_from, observed_at: f.doc.observed_at }, now, ended, replacedBy);
  return { ...i, subject_id: f.subject_id, object_id: f.object_id, session_id: sessionId };
}

/**
 * What the namespace believed at `asOf` (platform clock): live facts learned
 * at or before it, plus history intervals that contain it. A fact learned
 * before validity existed (no valid_from) counts as learned at 0.
 */
export function factsAsOf(content: SnapshotContent, asOf: number): SessionFact[] {
  const out: SessionFact[] = content.facts.filter((f) => currentAt(f.doc.valid_from, null, asOf));
  const seen = new Set(out.map((f) => f.fact_id));
  for (const v of historyOf(content)) {
    if (currentAt(v.valid_from, v.valid_to, asOf) && !seen.has(v.fact_id)) {
      seen.add(v.fact_id);
      out.push({
        fact_id: v.fact_id,
        subject_id: v.subject_id,
        predicate: v.predicate,
        object_id: v.object_id,
        doc: { ...(v.source !== undefined ? { source: v.source } : {}), valid_from: v.valid_from, ...(v.observed_at !== undefined ? { observed_at: v.observed_at } : {}) },
      });
    }
  }
  return out;
}

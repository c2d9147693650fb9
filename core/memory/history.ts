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

/** Throws on the first problem in the history or the predicate table (limits first). */
export function checkHistory(key: ScopeKey, content: SnapshotContent, entityIds: Set<string>): void {
  const raw = content.doc["history"];
  const sv = content.doc["single_valued"];
  if (sv !== undefined) {
    if (!Array.isArray(sv) || !sv.every((p) => typeof p === "string" && PREDICATE.test(p))) throw invalid("single_valued");
    if (sv.length > MAX_SINGLE_VALUED_PREDICATES) throw limitError("single_valued_predicates", MAX_SINGLE_VALUED_PREDICATES);
  }
  if (raw === undefined) return;
  if (!Array.isArray(raw)) throw invalid("history");
  if (raw.length > MAX_HISTORY_PER_NAMESPACE) throw limitError("history_per_namespace", MAX_HISTORY_PER_NAMESPACE);
  if (Buffer.byteLength(JSON.stringify(raw), "utf8") > MAX_HISTORY_BYTES) throw limitError("history_bytes", MAX_HISTORY_BYTES);
  for (const v of raw as FactVersion[]) {
    if (!v || typeof v !== "object") throw invalid("history.entry");
    if (typeof v.predicate !== "string" || !PREDICATE.test(v.predicate)) throw invalid("history.predicate");
    if (!entityIds.has(v.subject_id) || !entityIds.has(v.object_id)) throw invalid("history.endpoint");
    if (v.fact_id !== factId(key, v.subject_id, v.predicate, v.object_id)) throw invalid("history.fact_id");
    if (!finiteMs(v.valid_from) || !finiteMs(v.valid_to) || v.valid_from > v.valid_to) throw invalid("history.validity");
    if (v.observed_at !== undefined && !finiteMs(v.observed_at)) throw invalid("history.observed_at");
    if (v.ended !== "superseded" && v.ended !== "retracted") throw invalid("history.ended");
    if (!Array.isArray(v.replaced_by) || v.replaced_by.length > 512 || !v.replaced_by.every((id) => typeof id === "string" && SESSION_FACT_ID.test(id))) {
      throw invalid("history.replaced_by");
    }
    if (typeof v.session_id !== "string" || v.session_id.length < 1 || v.session_id.length > 256) throw invalid("history.session_id");
    if (v.source !== undefined && (typeof v.source !== "string" || v.source.length > MAX_SOURCE_CHARS)) throw invalid("history.source");
  }
}

/** The history entry a live fact becomes when it stops being current at `now`. */
export function endFact(f: SessionFact, sessionId: string, now: number, ended: FactVersion["ended"], replacedBy: string[]): FactVersion {
  return {
    fact_id: f.fact_id,
    subject_id: f.subject_id,
    predicate: f.predicate,
    object_id: f.object_id,
    ...(f.doc.source !== undefined ? { source: f.doc.source } : {}),
    valid_from: Math.min(f.doc.valid_from ?? 0, now),
    valid_to: now,
    ...(f.doc.observed_at !== undefined ? { observed_at: f.doc.observed_at } : {}),
    session_id: sessionId,
    ended,
    replaced_by: replacedBy,
  };
}

/**
 * What the namespace believed at `asOf` (platform clock): live facts learned
 * at or before it, plus history intervals that contain it. A fact learned
 * before validity existed (no valid_from) counts as learned at 0.
 */
export function factsAsOf(content: SnapshotContent, asOf: number): SessionFact[] {
  const out: SessionFact[] = content.facts.filter((f) => (f.doc.valid_from ?? 0) <= asOf);
  const seen = new Set(out.map((f) => f.fact_id));
  for (const v of historyOf(content)) {
    if (v.valid_from <= asOf && asOf < v.valid_to && !seen.has(v.fact_id)) {
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

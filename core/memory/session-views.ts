/**
 * Session memory as reads show it: live facts hydrated with their entities,
 * and one fact's intervals (its history entries and, if live, the current one).
 */
import type { FactView } from "../recall/recall";
import type { extractionTotals } from "./extract/plan";
import { historyOf } from "./history";
import { iso } from "./input";
import { MAX_SOURCE_CHARS } from "../limits";
import type { FactVersion, ScopeSnapshot, SessionEntity, SessionFact, SnapshotContent } from "./types";

/** A fact as reads show it: the view, its source, and when it became current (ISO; null before validity existed). */
export type LiveFactView = FactView & { source?: string; valid_from: string | null; observed_at?: string };

/** One interval of a fact's life, as the history read shows it. */
export interface FactHistoryEntry {
  fact_id: string;
  subject: FactView["subject"];
  predicate: string;
  object: FactView["object"];
  source?: string;
  valid_from: string | null;
  /** null while the fact is current. */
  valid_to: string | null;
  observed_at?: string;
  session_id: string;
  status: "current" | "superseded" | "retracted";
  replaced_by: string[];
}

export function entityView(e: SessionEntity): FactView["subject"] {
  return { id: e.id, name: e.name, type: e.type, ...(e.doc.aliases?.length ? { aliases: e.doc.aliases } : {}) };
}

/** Views of `facts` (default: the live facts of `s`), hydrated from the snapshot's entities. */
export function factViews(s: SnapshotContent, facts: SessionFact[] = s.facts): LiveFactView[] {
  const byId = new Map(s.entities.map((e) => [e.id, e]));
  const out: LiveFactView[] = [];
  for (const f of facts) {
    const a = byId.get(f.subject_id);
    const b = byId.get(f.object_id);
    if (!a || !b) continue;
    out.push({
      fact_id: f.fact_id,
      subject: entityView(a),
      predicate: f.predicate,
      object: entityView(b),
      ...(f.doc.source !== undefined ? { source: f.doc.source } : {}),
      valid_from: iso(f.doc.valid_from),
      ...(f.doc.observed_at !== undefined ? { observed_at: new Date(f.doc.observed_at).toISOString() } : {}),
    });
  }
  return out;
}

/** A namespace read: its entities and live facts, its revision, and what offload extraction did there. */
export interface ReadResult {
  entities: Array<{ id: string; name: string; type: string; aliases: string[] }>;
  facts: LiveFactView[];
  revision: number;
  /** What offload extraction did in this namespace (running counts). */
  extraction: ReturnType<typeof extractionTotals>;
}

/** Every interval of fact `id` in the namespace, oldest first, the current one (if live) last; `sessionId` is the namespace's own. */
export function factHistory(s: SnapshotContent, id: string, sessionId: string): FactHistoryEntry[] {
  const byId = new Map(s.entities.map((e) => [e.id, e]));
  const versions: FactHistoryEntry[] = [];
  const push = (v: Omit<FactVersion, "ended" | "valid_to"> & { status: FactHistoryEntry["status"]; valid_to: number | null }) => {
    const a = byId.get(v.subject_id);
    const b = byId.get(v.object_id);
    if (!a || !b) return;
    versions.push({
      fact_id: v.fact_id,
      subject: entityView(a),
      predicate: v.predicate,
      object: entityView(b),
      ...(v.source !== undefined ? { source: v.source } : {}),
      valid_from: iso(v.valid_from),
      valid_to: v.valid_to === null ? null : new Date(v.valid_to).toISOString(),
      ...(v.observed_at !== undefined ? { observed_at: new Date(v.observed_at).toISOString() } : {}),
      session_id: v.session_id,
      status: v.status,
      replaced_by: v.replaced_by,
    });
  };
  for (const v of historyOf(s)) if (v.fact_id === id) push({ ...v, status: v.ended });
  const live = s.facts.find((f) => f.fact_id === id);
  if (live) {
    push({
      fact_id: live.fact_id,
      subject_id: live.subject_id,
      predicate: live.predicate,
      object_id: live.object_id,
      ...(live.doc.source !== undefined ? { source: live.doc.source } : {}),
      valid_from: live.doc.valid_from ?? 0,
      valid_to: null,
      ...(live.doc.observed_at !== undefined ? { observed_at: live.doc.observed_at } : {}),
      session_id: sessionId,
      status: "current",
      replaced_by: [],
    });
  }
  return versions;
}

/**
 * Promotion lineage, one bounded text per live fact of `ids`: the session fact's ID, since when it
 * was current, and the facts it replaced (with their intervals). Unknown IDs are absent.
 */
export function lineageOf(s: ScopeSnapshot, ids: string[]): Map<string, string> {
  const byId = new Map(s.entities.map((e) => [e.id, e.name]));
  const out = new Map<string, string>();
  const hist = historyOf(s);
  for (const f of s.facts) {
    if (!ids.includes(f.fact_id)) continue;
    const parts = [`promoted from session fact ${f.fact_id} of session ${s.key.session_id}, current since ${iso(f.doc.valid_from) ?? "before validity was recorded"}`];
    for (const v of hist) {
      if (v.fact_id !== f.fact_id && !v.replaced_by.includes(f.fact_id)) continue;
      const what = `${byId.get(v.subject_id) ?? "?"} ${v.predicate} ${byId.get(v.object_id) ?? "?"}`;
      parts.push(`${v.fact_id === f.fact_id ? "earlier interval" : "replaced"} ${v.fact_id} (${what}) ${iso(v.valid_from) ?? "?"}..${new Date(v.valid_to).toISOString()} ${v.ended}`);
    }
    out.set(f.fact_id, parts.join("; ").slice(0, MAX_SOURCE_CHARS));
  }
  return out;
}

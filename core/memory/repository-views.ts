/**
 * Repository memory as reads show it: a durable fact with its provenance and
 * validity, one interval of its history, and a history interval read as a
 * fact (for as_of reads and recall).
 */
import { iso } from "./input";
import type { RepoFact, RepoFactVersion } from "./repository-store";

/** A durable fact as reads show it: provenance and validity (ISO; valid_from null before validity existed). */
export interface RepoFactView {
  fact_id: string;
  subject: { id: string; name: string; type: string };
  predicate: string;
  object: { id: string; name: string; type: string };
  origin_session_id: string | null;
  source?: string;
  valid_from: string | null;
  observed_at?: string;
}

/** One interval of a durable fact's life, as the history read shows it. */
export interface RepoFactHistoryEntry extends RepoFactView {
  valid_to: string | null;
  ended_by: string | null;
  status: "current" | "superseded" | "retracted";
  replaced_by: string[];
}

export function repoFactView(f: RepoFact): RepoFactView {
  return {
    fact_id: f.fact_id,
    subject: f.subject,
    predicate: f.predicate,
    object: f.object,
    origin_session_id: f.origin_session_id,
    ...(f.source !== undefined ? { source: f.source } : {}),
    valid_from: iso(f.valid_from),
    ...(f.observed_at !== undefined ? { observed_at: new Date(f.observed_at).toISOString() } : {}),
  };
}

/** A history interval as a fact (for as_of reads and recall). */
export function versionAsFact(v: RepoFactVersion): RepoFact {
  return {
    fact_id: v.fact_id,
    subject: v.subject,
    predicate: v.predicate,
    object: v.object,
    origin_session_id: v.session_id,
    ...(v.source !== undefined ? { source: v.source } : {}),
    valid_from: v.valid_from,
    ...(v.observed_at !== undefined ? { observed_at: v.observed_at } : {}),
  };
}


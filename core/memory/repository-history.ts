/**
 * History, validity and single-valued predicates of one repository's durable
 * memory: the repository counterpart of history.ts, built on its shared
 * pieces (checkVersions, endInterval, planSupersession, currentAt).
 *
 * Where it lives: the repository's meta document (`RepoMemoryDoc`), stored by
 * every adapter with the repository's lock record and replaced by the write
 * that changes it, under the lock, after a revision check (RepoChange). A
 * history entry carries its endpoints' names (nodes may be pruned by a
 * re-ingest or a forget afterwards; the entry stays readable).
 *
 * Invariants `checkRepoDoc` enforces in every adapter: at most
 * MAX_REPO_HISTORY entries and MAX_REPO_HISTORY_BYTES of JSON, node and fact
 * IDs derived from this repository (an entry can never name another
 * repository's records), valid_from ≤ valid_to, single-valued table bounded.
 *
 * Validity of a live durable fact rides in its edge's property document
 * (`props`: source, valid_from, observed_at), which every adapter already
 * stores; a fact written before validity existed has no valid_from.
 */
import { AppError, limitError } from "../errors";
import { MAX_REPO_FACTS, MAX_REPO_HISTORY, MAX_REPO_HISTORY_BYTES } from "../limits";
import { checkSingleValued, checkVersions, currentAt, endInterval } from "./history";
import { REPO_FACT_ID, repoFactId, repoNodeId } from "./ids";
import type { DurableTriple, RepoFact, RepoFactVersion, RepoMemoryDoc } from "./repository-store";

/** The history of a meta document, oldest first. */
export function repoHistoryOf(doc: RepoMemoryDoc | null | undefined): RepoFactVersion[] {
  return Array.isArray(doc?.history) ? doc.history : [];
}

export function repoSingleValuedOf(doc: RepoMemoryDoc | null | undefined): string[] {
  return Array.isArray(doc?.single_valued) ? doc.single_valued : [];
}

/** A meta document with empty lists left out (so an untouched repository stores `{}`). */
export function repoDoc(history: RepoFactVersion[], singleValued: string[]): RepoMemoryDoc {
  return {
    ...(singleValued.length ? { single_valued: [...new Set(singleValued)].sort() } : {}),
    ...(history.length ? { history } : {}),
  };
}

function nodeOk(repoId: string, n: unknown): boolean {
  if (!n || typeof n !== "object") return false;
  const x = n as { id?: unknown; name?: unknown; type?: unknown };
  return typeof x.id === "string" && typeof x.name === "string" && typeof x.type === "string" && x.id === repoNodeId(repoId, x.type, x.name);
}

const sessionOk = (v: unknown) => v === null || (typeof v === "string" && v.length >= 1 && v.length <= 256);

/** Throws on the first problem of a repository meta document (limits first). Adapters call it inside their transaction. */
export function checkRepoDoc(repoId: string, doc: RepoMemoryDoc): void {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new AppError("validation_failed", { message: "The repository memory document is not valid.", details: { field: "doc" } });
  checkSingleValued(doc.single_valued);
  checkVersions(doc.history, {
    maxEntries: MAX_REPO_HISTORY,
    maxBytes: MAX_REPO_HISTORY_BYTES,
    limitNames: ["repo_history", "repo_history_bytes"],
    factIdPattern: REPO_FACT_ID,
    entry: (raw) => {
      const v = raw as unknown as RepoFactVersion;
      if (!nodeOk(repoId, v.subject) || !nodeOk(repoId, v.object)) return "history.endpoint";
      if (v.fact_id !== repoFactId(repoId, v.subject.id, v.predicate, v.object.id)) return "history.fact_id";
      if (!sessionOk(v.session_id) || !sessionOk(v.ended_by)) return "history.session_id";
      return null;
    },
  });
}

/** The durable fact quota: live facts plus history entries after a write. */
export function checkRepoFactQuota(liveFacts: number, doc: RepoMemoryDoc | null | undefined): void {
  if (liveFacts + repoHistoryOf(doc).length > MAX_REPO_FACTS) throw limitError("repo_facts", MAX_REPO_FACTS);
}

/** The history entry a live durable fact becomes when a write of `endedBy` ends it at `now`. */
export function endRepoFact(f: RepoFact, endedBy: string | null, now: number, ended: RepoFactVersion["ended"], replacedBy: string[]): RepoFactVersion {
  const i = endInterval({ fact_id: f.fact_id, predicate: f.predicate, source: f.source, valid_from: f.valid_from, observed_at: f.observed_at }, now, ended, replacedBy);
  const node = (n: RepoFact["subject"]) => ({ id: n.id, name: n.name, type: n.type });
  return { ...i, subject: node(f.subject), object: node(f.object), session_id: f.origin_session_id, ended_by: endedBy };
}

/**
 * The meta document without what `sessionId` wrote: its history entries go; entries it ended keep
 * their interval but lose `ended_by` and `replaced_by` (the replacing facts were its own, and are gone).
 */
export function forgetInDoc(doc: RepoMemoryDoc, sessionId: string): { doc: RepoMemoryDoc; removed: number; removedIds: string[]; changed: boolean } {
  const before = repoHistoryOf(doc);
  const kept = before.filter((v) => v.session_id !== sessionId);
  let changed = kept.length !== before.length;
  const history = kept.map((v) => {
    if (v.ended_by !== sessionId) return v;
    changed = true;
    return { ...v, ended_by: null, replaced_by: [] };
  });
  const removedIds = [...new Set(before.filter((v) => v.session_id === sessionId).map((v) => v.fact_id))];
  return { doc: repoDoc(history, repoSingleValuedOf(doc)), removed: before.length - kept.length, removedIds, changed };
}

/** Whether a durable fact (live: no `valid_to`) was current at `asOf`. */
export function repoCurrentAt(v: { valid_from?: number | undefined; valid_to?: number | undefined }, asOf: number): boolean {
  return currentAt(v.valid_from, v.valid_to ?? null, asOf);
}

/** The validity and source a durable edge stores in its property document. */
export interface EdgeProps {
  source?: string;
  valid_from?: number;
  observed_at?: number;
}

/** The property document a new edge is written with (`now` is its valid_from unless the triple brings one). */
export function edgeProps(t: DurableTriple, now: number): EdgeProps {
  return {
    ...(t.source ? { source: t.source } : {}),
    valid_from: t.valid_from ?? now,
    ...(t.observed_at !== undefined ? { observed_at: t.observed_at } : {}),
  };
}

/** Validity and source read back from a stored property document (what is malformed is left out). */
export function readEdgeProps(props: unknown): EdgeProps {
  const p = (typeof props === "string" ? (props ? JSON.parse(props) : {}) : (props ?? {})) as Record<string, unknown>;
  const ms = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  const vf = ms(p.valid_from);
  const ob = ms(p.observed_at);
  return { ...(typeof p.source === "string" ? { source: p.source } : {}), ...(vf !== undefined ? { valid_from: vf } : {}), ...(ob !== undefined ? { observed_at: ob } : {}) };
}

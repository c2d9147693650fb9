/**
 * Export and import of one repository's durable memory as JSON Lines.
 *
 * Format `codesynapse.repository-memory/1`, one JSON object a line:
 *   {"kind":"header","format":…,"repo_id":…,"exported_at":ISO,"single_valued":[…]}   (first line, once)
 *   {"kind":"node","id":…,"name":…,"type":…}
 *   {"kind":"fact","fact_id":…,"subject_id":…,"predicate":…,"object_id":…,"source"?,"valid_from":ISO|null,
 *    "observed_at"?,"origin_session_id":…|null}
 *   {"kind":"history","fact_id":…,"subject_id":…,"predicate":…,"object_id":…,"source"?,"valid_from":ISO|null,
 *    "valid_to":ISO,"observed_at"?,"session_id":…|null,"ended_by":…|null,"ended":…,"replaced_by":[…]}
 * What is exported: the memory facts (every live FACT edge not written by ingest — the code graph is
 * re-derived from the checkout by ingest), the nodes they and the history name, the history, the
 * single-valued table. Embeddings are left out; the importer embeds again.
 *
 * IDs in a file only link its own lines: import derives node and fact IDs for the target repository, so
 * a file can never name or reach records of another repository. `parseRepoImport` validates every line
 * (shape, references, bounds; transfer-lines.ts) before anything is written; names and sources are redacted again by the
 * caller (RepositoryMemory.importLines), which writes everything in one adapter call or nothing.
 */
import { z } from "zod";
import { limitError } from "../errors";
import { MAX_IMPORT_CHARS, MAX_REPO_TRANSFER_LINES } from "../limits";
import { repoHistoryOf, repoSingleValuedOf } from "./repository-history";
import type { RepoFact, RepoMemoryDoc } from "./repository-store";
import { iso } from "./input";
import { factFields, id, name, nodeType, parseTransfer, predicate, versionFields, when, type ParsedTransfer, type TransferFormat } from "./transfer-lines";

export const REPO_EXPORT_FORMAT = "codesynapse.repository-memory/1";

const session = z.string().min(1).max(256).nullable();
const header = z.strictObject({
  kind: z.literal("header"),
  format: z.literal(REPO_EXPORT_FORMAT),
  repo_id: z.string().min(1).max(256),
  exported_at: when,
  single_valued: z.array(predicate).max(64),
});
const node = z.strictObject({ kind: z.literal("node"), id, name, type: nodeType });
const fact = z.strictObject({ ...factFields, origin_session_id: session });
const version = z.strictObject({ ...versionFields, session_id: session, ended_by: session });
const line = z.discriminatedUnion("kind", [header, node, fact, version]);

type Line = z.infer<typeof line>;
const FORMAT: TransferFormat<Line, "node"> = { line, nodeKind: "node", nodeNoun: "a node", maxLines: MAX_REPO_TRANSFER_LINES, checkIntervals: true };

export type ParsedRepoImport = ParsedTransfer<Line, "node">;

const isoOpt = (k: string, ms: number | undefined) => (ms === undefined ? {} : { [k]: new Date(ms).toISOString() });

/** The memory facts, the nodes they and the history name, and the history, as JSON Lines (refused past MAX_IMPORT_CHARS). */
export function exportRepoLines(repoId: string, facts: RepoFact[], doc: RepoMemoryDoc, exportedAt: number): string {
  const out: unknown[] = [{ kind: "header", format: REPO_EXPORT_FORMAT, repo_id: repoId, exported_at: new Date(exportedAt).toISOString(), single_valued: repoSingleValuedOf(doc) }];
  const nodes = new Map<string, { id: string; name: string; type: string }>();
  const history = repoHistoryOf(doc);
  for (const f of [...facts, ...history]) for (const n of [f.subject, f.object]) if (!nodes.has(n.id)) nodes.set(n.id, { id: n.id, name: n.name, type: n.type });
  for (const n of nodes.values()) out.push({ kind: "node", ...n });
  for (const f of facts) {
    out.push({
      kind: "fact",
      fact_id: f.fact_id,
      subject_id: f.subject.id,
      predicate: f.predicate,
      object_id: f.object.id,
      ...(f.source !== undefined ? { source: f.source } : {}),
      valid_from: iso(f.valid_from),
      ...isoOpt("observed_at", f.observed_at),
      origin_session_id: f.origin_session_id,
    });
  }
  for (const v of history) {
    out.push({
      kind: "history",
      fact_id: v.fact_id,
      subject_id: v.subject.id,
      predicate: v.predicate,
      object_id: v.object.id,
      ...(v.source !== undefined ? { source: v.source } : {}),
      valid_from: iso(v.valid_from),
      valid_to: new Date(v.valid_to).toISOString(),
      ...isoOpt("observed_at", v.observed_at),
      session_id: v.session_id,
      ended_by: v.ended_by,
      ended: v.ended,
      replaced_by: v.replaced_by,
    });
  }
  const text = out.map((o) => JSON.stringify(o)).join("\n") + "\n";
  // Every export can be imported: the same bound.
  if (text.length > MAX_IMPORT_CHARS) throw limitError("import_chars", MAX_IMPORT_CHARS);
  return text;
}

/** Parses and cross-checks a whole file; throws on the first bad line. */
export function parseRepoImport(text: string): ParsedRepoImport {
  return parseTransfer(text, FORMAT);
}

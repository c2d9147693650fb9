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
 * (shape, references, bounds) before anything is written; names and sources are redacted again by the
 * caller (RepositoryMemory.importLines), which writes everything in one adapter call or nothing.
 */
import { z } from "zod";
import { AppError, limitError } from "../errors";
import { MAX_IMPORT_CHARS, MAX_REPO_TRANSFER_LINES, MAX_SOURCE_CHARS } from "../limits";
import { repoHistoryOf, repoSingleValuedOf } from "./repository-history";
import type { RepoFact, RepoMemoryDoc } from "./repository-store";
import { id, invalidLine, name, predicate, readLines, when } from "./transfer";

export const REPO_EXPORT_FORMAT = "codesynapse.repository-memory/1";

const session = z.string().min(1).max(256).nullable();
const header = z.strictObject({
  kind: z.literal("header"),
  format: z.literal(REPO_EXPORT_FORMAT),
  repo_id: z.string().min(1).max(256),
  exported_at: when,
  single_valued: z.array(predicate).max(64),
});
const node = z.strictObject({ kind: z.literal("node"), id, name, type: z.string().regex(/^[A-Za-z0-9_.:-]{0,64}$/) });
const fact = z.strictObject({
  kind: z.literal("fact"),
  fact_id: id,
  subject_id: id,
  predicate,
  object_id: id,
  source: z.string().max(MAX_SOURCE_CHARS).optional(),
  valid_from: when.nullable(),
  observed_at: when.optional(),
  origin_session_id: session,
});
const version = z.strictObject({
  kind: z.literal("history"),
  fact_id: id,
  subject_id: id,
  predicate,
  object_id: id,
  source: z.string().max(MAX_SOURCE_CHARS).optional(),
  valid_from: when.nullable(),
  valid_to: when,
  observed_at: when.optional(),
  session_id: session,
  ended_by: session,
  ended: z.enum(["superseded", "retracted"]),
  replaced_by: z.array(id).max(512),
});
const line = z.discriminatedUnion("kind", [header, node, fact, version]);

export interface ParsedRepoImport {
  header: z.infer<typeof header>;
  nodes: Array<z.infer<typeof node>>;
  facts: Array<z.infer<typeof fact>>;
  history: Array<z.infer<typeof version>>;
}

const isoOrNull = (ms: number | undefined) => (ms === undefined || ms === 0 ? null : new Date(ms).toISOString());
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
      valid_from: isoOrNull(f.valid_from),
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
      valid_from: isoOrNull(v.valid_from),
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
  const parsed: ParsedRepoImport = { header: undefined as unknown as ParsedRepoImport["header"], nodes: [], facts: [], history: [] };
  for (const d of readLines(text, line, MAX_IMPORT_CHARS, MAX_REPO_TRANSFER_LINES)) {
    if (d.kind === "header") parsed.header = d;
    else if (d.kind === "node") parsed.nodes.push(d);
    else if (d.kind === "fact") parsed.facts.push(d);
    else parsed.history.push(d);
  }
  const ids = new Set<string>();
  for (const n of parsed.nodes) {
    if (ids.has(n.id)) throw invalidLine(0, "duplicate node id");
    ids.add(n.id);
  }
  for (const f of [...parsed.facts, ...parsed.history]) {
    if (!ids.has(f.subject_id) || !ids.has(f.object_id)) throw invalidLine(0, "fact endpoint is not a node of the file");
  }
  if (parsed.history.some((v) => Date.parse(v.valid_to) < (v.valid_from === null ? 0 : Date.parse(v.valid_from)))) throw invalidLine(0, "history interval ends before it starts");
  if (!parsed.header) throw new AppError("validation_failed", { details: { field: "lines" } });
  return parsed;
}
